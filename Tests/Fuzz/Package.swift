// swift-tools-version: 6.1
// A separate package so that the root package's `swift build` and `swift test` never see the
// libFuzzer targets: they only link with `--sanitize=fuzzer`, which supplies `main`.
// Build and run one target: `bash Tests/Fuzz/run.sh TARGET [libFuzzer options]` (see run.sh).
import PackageDescription

let package = Package(
    name: "OTPKitFuzz",
    dependencies: [
        .package(name: "OTPKit", path: "../..")
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
    ],
    swiftLanguageModes: [.v6]
)
