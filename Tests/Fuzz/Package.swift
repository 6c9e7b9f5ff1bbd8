// swift-tools-version: 6.1
// A separate package so that the root package's `swift build` and `swift test` never see the
// libFuzzer target: it only links with `--sanitize=fuzzer`, which supplies `main`.
// Build and run: see README.md ("Fuzzing") or Tests/Fuzz/run.sh.
import PackageDescription

let package = Package(
    name: "OTPKitFuzz",
    dependencies: [
        .package(name: "OTPKit", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "FuzzParsers",
            dependencies: [
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "OTPURI", package: "OTPKit"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ],
    swiftLanguageModes: [.v6]
)
