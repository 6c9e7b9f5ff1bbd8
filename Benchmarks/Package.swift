// swift-tools-version: 6.1
import PackageDescription

// A package of its own so that the root's `swift build` and `swift test` never build the benchmark
// harness, swift-crypto or liboath.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OTPKitBenchmarks",
    dependencies: [
        .package(name: "OTPKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
        // The range the root package takes through jwt-kit, so that one version resolves for both.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        // The raw commit rates beside the stores' (RawCommit+Benchmarks.swift): the drivers the stores use.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // The pages' benchmarks call the server's router as its HTTP server does.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibOATH",
            pkgConfig: "liboath",
            providers: [.apt(["liboath-dev"])]
        ),
        .systemLibrary(
            name: "CReferenceOpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(name: "CSHALanesHeader", path: "Sources/CSHALanesHeader"),
        .target(
            name: "BenchmarkWorkload",
            dependencies: [.product(name: "OTPCore", package: "OTPKit"), .product(name: "Benchmark", package: "benchmark"), "CSHALanesHeader"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "OTPKitBenchmarks",
            dependencies: [
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "OTPURI", package: "OTPKit"),
                .product(name: "OTPQR", package: "OTPKit"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkWorkload",
                "CReferenceOpenSSL",
            ],
            path: "Benchmarks/OTPKitBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A passkey assertion's verification against the bare signature verification (the limit).
        .executableTarget(
            name: "PasskeyBenchmarks",
            dependencies: [
                .product(name: "OTPWebAuthn", package: "OTPKit"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkWorkload",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/PasskeyBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ReferenceBenchmarks",
            dependencies: [
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Crypto", package: "swift-crypto"),
                "BenchmarkWorkload",
                "CLibOATH",
                "CReferenceOpenSSL",
            ],
            path: "Benchmarks/ReferenceBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EnrollmentBenchmarks",
            dependencies: [
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "OTPAuthentication", package: "OTPKit"),
                .product(name: "OTPAuthenticationSQLite", package: "OTPKit"),
                .product(name: "OTPAuthenticationPostgres", package: "OTPKit"),
                .product(name: "OTPSealing", package: "OTPKit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Benchmark", package: "benchmark"),
                // The passkey sign-ins' software authenticator, and their limit: a P-256 verification.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/EnrollmentBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PageBenchmarks",
            dependencies: [
                .product(name: "OTPCore", package: "OTPKit"),
                .product(name: "OTPAuthentication", package: "OTPKit"),
                .product(name: "OTPServer", package: "OTPKit"),
                .product(name: "OTPSealing", package: "OTPKit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PageBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
