// swift-tools-version: 6.1
// A separate package so that the root package's `swift build` and `swift test` never see the
// libFuzzer targets: they only link with `--sanitize=fuzzer`, which supplies `main`.
// Build and run one target: `bash Tests/Fuzz/run.sh TARGET [libFuzzer options]` (see run.sh).
import PackageDescription

let package = Package(
    name: "OTPKitFuzz",
    dependencies: [
        .package(name: "OTPKit", path: "../.."),
        // Already in OTPKit's graph; named for the router FuzzIdentityToolkit drives the routes
        // through, and the loopback gateway of FuzzGatewayAnswers.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // What every target shares: the check that reports a broken property with its message.
        .target(name: "FuzzSupport"),
        // Base32 and both otpauth:// parsers.
        .executableTarget(
            name: "FuzzParsers",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "OTPURI", package: "OTPKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Other authenticators' exports, as `totp import` reads them.
        .executableTarget(
            name: "FuzzImport",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPImport", package: "OTPKit"),
                .product(name: "OTPURI", package: "OTPKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Phone numbers through libphonenumber, as every phoneNumber a client sends reaches it.
        .executableTarget(
            name: "FuzzPhoneNumber",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPPhoneNumber", package: "OTPKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // PNG and JPEG images through libpng, TurboJPEG and zbar, as `totp add --qr` reads them.
        .executableTarget(
            name: "FuzzQRImage",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPQRScan", package: "OTPKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // One request through otpkit-server's routes in process: every REST body type, and the ID
        // tokens, refresh tokens, pending credentials and action codes the server issues and reads.
        .executableTarget(
            name: "FuzzIdentityToolkit",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPServer", package: "OTPKit"),
                .product(name: "OTPAuthentication", package: "OTPKit"),
                .product(name: "OTPSealing", package: "OTPKit"),
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // A provider's key set and an ID token through OTPFederation's verifier.
        .executableTarget(
            name: "FuzzIdentityTokens",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPFederation", package: "OTPKit"),
                .product(name: "OTPAuthentication", package: "OTPKit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // An SMS or mail gateway's raw answer, read by the Twilio and webhook senders.
        .executableTarget(
            name: "FuzzGatewayAnswers",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPSMS", package: "OTPKit"),
                .product(name: "OTPMail", package: "OTPKit"),
                .product(name: "OTPAuthentication", package: "OTPKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // What a browser or an authenticator sends a WebAuthn relying party: CBOR (libcbor), authenticator
        // data, COSE keys, client data, registrations and assertions.
        .executableTarget(
            name: "FuzzWebAuthn",
            dependencies: [
                "FuzzSupport",
                .product(name: "OTPWebAuthn", package: "OTPKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
