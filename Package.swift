// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OTPKit",
    products: [
        .library(name: "OTPCore", targets: ["OTPCore"]),
        .library(name: "OTPURI", targets: ["OTPURI"]),
        .library(name: "OTPQR", targets: ["OTPQR"]),
        .library(name: "OTPSealing", targets: ["OTPSealing"]),
        .library(name: "OTPEnrollment", targets: ["OTPEnrollment"]),
        .library(name: "OTPEnrollmentSQLite", targets: ["OTPEnrollmentSQLite"]),
        .executable(name: "totp-enrollment", targets: ["TOTPEnrollmentCommand"]),
        .executable(name: "totp", targets: ["TOTPCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SQLite through vapor/sqlite-nio rather than GRDB: sqlite-nio is maintained by Vapor with Linux as a
        // first-class CI platform and vendors its own SQLite; GRDB's Linux support is community-maintained.
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCryptoOpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "OTPCore",
            dependencies: ["CCryptoOpenSSL"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OTPURI",
            dependencies: ["OTPCore"],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .target(
            name: "OTPQR",
            dependencies: ["CQRencode", "CPNG"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "TOTPCommand",
            dependencies: [
                "OTPCore", "OTPURI", "OTPQR",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TOTPCommandTests",
            dependencies: ["TOTPCommand"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OTPSealing",
            dependencies: ["OTPCore", "CCryptoOpenSSL"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OTPSealingTests",
            dependencies: ["OTPSealing", "OTPCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OTPCoreTests",
            dependencies: ["OTPCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OTPEnrollment",
            dependencies: ["OTPCore", "OTPURI", "CCryptoOpenSSL", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        .target(
            name: "OTPEnrollmentTestSupport",
            dependencies: ["OTPEnrollment", "OTPCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OTPEnrollmentTests",
            dependencies: ["OTPEnrollment", "OTPEnrollmentTestSupport", "OTPCore", "OTPURI", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OTPURITests",
            dependencies: ["OTPURI", "OTPCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OTPQRTests",
            dependencies: ["OTPQR", "OTPURI", "OTPCore"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OTPEnrollmentSQLite",
            dependencies: ["OTPCore", "OTPEnrollment", "OTPSealing", "CCryptoOpenSSL", .product(name: "SQLiteNIO", package: "sqlite-nio")],
            swiftSettings: swiftSettings
        ),
        // `totp enroll/signin/reseal/factors` run this executable: it links Foundation, NIO and SQLite,
        // which would slow every `totp code` start.
        .executableTarget(
            name: "TOTPEnrollmentCommand",
            dependencies: [
                "OTPCore", "OTPEnrollment", "OTPEnrollmentSQLite", "OTPSealing", "OTPQR",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Separate processes for the cross-process replay and kill -9 tests.
        .executableTarget(
            name: "OTPEnrollmentSQLiteTestHelper",
            dependencies: ["OTPCore", "OTPEnrollment", "OTPEnrollmentSQLite", "OTPSealing"],
            path: "Tests/OTPEnrollmentSQLiteTestHelper",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "OTPEnrollmentSQLiteTests",
            dependencies: ["OTPEnrollmentSQLite", "OTPEnrollment", "OTPEnrollmentTestSupport", "OTPSealing", "OTPCore",
                           .product(name: "SQLiteNIO", package: "sqlite-nio")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TOTPEnrollmentCommandTests",
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
