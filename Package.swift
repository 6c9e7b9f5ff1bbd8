// swift-tools-version: 6.1
import PackageDescription

// OTPKit is a Linux package: its C libraries come from Debian (pkg-config, apt providers) and its
// modules import Glibc directly.

let package = Package(
    name: "OTPKit",
    products: [
        .library(name: "OTPCore", targets: ["OTPCore"]),
        .library(name: "OTPURI", targets: ["OTPURI"]),
        .library(name: "OTPQR", targets: ["OTPQR"]),
        .library(name: "OTPSealing", targets: ["OTPSealing"]),
        .library(name: "OTPAuthentication", targets: ["OTPAuthentication"]),
        .library(name: "OTPAuthenticationSQLite", targets: ["OTPAuthenticationSQLite"]),
        .library(name: "OTPAuthenticationPostgres", targets: ["OTPAuthenticationPostgres"]),
        .library(name: "OTPAuthenticationTestSupport", targets: ["OTPAuthenticationTestSupport"]),
        // The four products' names before the rename, for one release (the OTPEnrollment module says why).
        .library(name: "OTPEnrollment", targets: ["OTPEnrollment"]),
        .library(name: "OTPEnrollmentSQLite", targets: ["OTPEnrollmentSQLite"]),
        .library(name: "OTPEnrollmentPostgres", targets: ["OTPEnrollmentPostgres"]),
        .library(name: "OTPEnrollmentTestSupport", targets: ["OTPEnrollmentTestSupport"]),
        .library(name: "OTPPhoneNumber", targets: ["OTPPhoneNumber"]),
        .library(name: "OTPSMS", targets: ["OTPSMS"]),
        .library(name: "OTPMail", targets: ["OTPMail"]),
        .library(name: "OTPFederation", targets: ["OTPFederation"]),
        .library(name: "OTPWebAuthn", targets: ["OTPWebAuthn"]),
        .library(name: "OTPImport", targets: ["OTPImport"]),
        .library(name: "OTPVault", targets: ["OTPVault"]),
        .library(name: "OTPQRScan", targets: ["OTPQRScan"]),
        .executable(name: "totp-enrollment", targets: ["TOTPEnrollmentCommand"]),
        .executable(name: "totp", targets: ["TOTPCommand"]),
        .executable(name: "totp-transfer", targets: ["TOTPTransferCommand"]),
        .library(name: "OTPServer", targets: ["OTPServer"]),
        .executable(name: "otpkit-server", targets: ["OTPServerCommand"]),
    ],
    dependencies: [
        // The lowest versions tested; a library never pins exactly, so downstream packages resolve.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SQLite through vapor/sqlite-nio rather than GRDB: sqlite-nio is maintained by Vapor with Linux as a
        // first-class CI platform and vendors its own SQLite; GRDB's Linux support is community-maintained.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // PostgreSQL for several servers sharing one store: postgres-nio's own connection pool
        // (PostgresClient) and bound statements; no ORM between the store and its SQL.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already in the graph through postgres-nio; named for the Postgres store's TLS configuration.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Already in the graph through jwt-kit; base64url for the server's tokens without Foundation's
        // string searches, which were a tenth of a refused sign-in's CPU.
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Runs child processes with both output pipes drained concurrently and their process group
        // killed on a timeout: the tests' ProcessRunner and OTPSMS's command sender.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // The tests' HTTP client of the server's processes (and HummingbirdTesting's). Not a library
        // dependency: its state machine traps on an answer with a status below 100, so OTPKit's
        // own outbound exchanges go through libcurl (OTPOutbound).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already in the graph through sqlite-nio; named for OTPOutbound's threads, the SQLite
        // store's and the loopback HTTP server of the tests.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Google Authenticator's migration payloads (OTPImport): a real protobuf runtime rather than a
        // hand-written varint reader. Its code generator is not a build dependency (the generated code is committed).
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // OTPFederation's ID tokens: JWKS parsing and RS256/ES256 signature checks by a maintained JOSE
        // library rather than hand-written base64url, JSON Web Keys and RSA.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // Already in the graph through jwt-kit; named for the test identity provider's RSA keys, the tests'
        // SHA-256 and OTPWebAuthn's credential keys.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        // Already in the graph through jwt-kit; named for the X.509 certificates of otpkit-server's
        // session-cookie keys, which firebase-admin reads as Google publishes them, and WebAuthn's
        // attestation chains.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // Already in the graph through swift-certificates; named for the object identifier of WebAuthn's
        // AAGUID certificate extension.
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // otpkit-server's HTTP layer: Hummingbird 2's router on SwiftNIO, and swift-service-lifecycle
        // for start-up and a graceful shutdown on SIGTERM.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The account page's and console's HTML: logic-less templates that escape what they insert,
        // from the Hummingbird project, no dependencies of its own.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // Already in the graph through Hummingbird; named for the pages' security headers.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // otpkit-server's metrics: the routes count through swift-metrics' API (already in the graph
        // through Hummingbird); the executable exports them at GET /metrics through swift-prometheus.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Already in the graph through Hummingbird; named for otpkit-server's request deadline, a
        // channel handler on Hummingbird's HTTP parts (NIOHTTPTypes).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    ],
    targets: [
        // C libraries.
        .systemLibrary(name: "CCryptoOpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Interleaved SHA-1/SHA-256 compression on the x86 SHA extensions: the one hash code OTPKit
        // writes itself, since no library here exposes independent compressions side by side.
        .target(name: "CSHALanes"),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // The kernel key retention service (keyctl), where `totp unlock` leaves the vault's key.
        .systemLibrary(name: "CKeyutils", pkgConfig: "libkeyutils", providers: [.apt(["libkeyutils-dev"])]),
        // libxcrypt's crypt_r: bcrypt password hashes imported from elsewhere (Firebase's BCRYPT),
        // checked by the library that has checked them on Linux for decades.
        .systemLibrary(name: "CCrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),
        // zbar scans QR codes in grey pixels; the images are decoded by libpng and TurboJPEG (its
        // error-code API, not libjpeg's longjmp) before zbar sees them.
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // libphonenumber (libphonenumber-dev) is C++, and Debian ships no pkg-config file for it. A
        // small C++ target wraps it behind a C header rather than OTPPhoneNumber importing its headers
        // through Swift's C++ interoperability: they pull in protobuf and Abseil templates, and the
        // interoperability mode would then be one more way the module builds unlike every other.
        .target(name: "CPhoneNumber", linkerSettings: [.linkedLibrary("phonenumber")]),
        // libcurl, for what OTPKit sends out: HTTP exchanges (OTPOutbound) and SMTP submissions
        // (OTPMail). A C target rather than a system library, for the shims that set libcurl's
        // options (curl_easy_setopt is variadic, which Swift cannot call).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        // libcbor (libcbor-dev), WebAuthn's CBOR decoder; a C target for the plausibility walk over
        // libcbor's streaming decoder that runs before cbor_load (CCBOR.h says why).
        .target(name: "CCBOR", linkerSettings: [.linkedLibrary("cbor")]),

        // Libraries, bottom up (ARCHITECTURE.md).
        .target(name: "OTPCore", dependencies: ["CCryptoOpenSSL", "CSHALanes"]),
        .target(name: "OTPURI", dependencies: ["OTPCore"]),
        .target(name: "OTPQR", dependencies: ["CQRencode", "CPNG"]),
        // Reads other authenticators' exports (Aegis, 2FAS, andOTP, URI lists, Google Authenticator
        // migration URIs) into key URI models, and writes migration URIs. Encrypted Aegis vaults through
        // OTPVault's envelope; 2FAS and andOTP through OTPCore's crypto helpers.
        .target(
            name: "OTPImport",
            dependencies: ["OTPCore", "OTPURI", "OTPVault", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            // The schema the committed GoogleAuthMigration.pb.swift is generated from (Scripts/generate-protobuf.sh).
            exclude: ["GoogleMigration/google_auth_migration.proto"]
        ),
        // Reads the QR codes in PNG and JPEG images (exports shown as QR codes, screenshots).
        // OTPCore for its file reading loop; nothing about OTP.
        .target(name: "OTPQRScan", dependencies: ["OTPCore", "CZBar", "CTurboJPEG", "CPNG"]),
        .target(
            name: "OTPSealing",
            dependencies: ["OTPCore", "CCryptoOpenSSL", .product(name: "ExtrasBase64", package: "swift-extras-base64")]
        ),
        // The encrypted vault of `totp`: Aegis's envelope (scrypt and raw key slots, AES-256-GCM),
        // safe writes under a lock, and unlocked sessions in the kernel keyring.
        .target(name: "OTPVault", dependencies: ["OTPCore", "OTPURI", "CCryptoOpenSSL", "CKeyutils"]),
        .target(
            name: "OTPAuthentication",
            dependencies: [
                "OTPCore", "OTPURI", "OTPSealing", "OTPPhoneNumber", "OTPWebAuthn", "CCryptoOpenSSL", "CCrypt",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "OTPAuthenticationTestSupport", dependencies: ["OTPAuthentication", "OTPCore"]),
        .target(name: "OTPPhoneNumber", dependencies: ["CPhoneNumber"]),
        // What every durable store shares: the key-id column, the start-up key check, re-sealing,
        // the migration runner. No product: the stores of this package are its only users.
        // OTPAuthentication for the records every store builds from its rows the same way (StoredRow).
        .target(name: "OTPDurableStore", dependencies: ["OTPCore", "OTPSealing", "OTPAuthentication", "CCryptoOpenSSL"]),
        .target(
            name: "OTPAuthenticationSQLite",
            dependencies: [
                "OTPCore", "OTPAuthentication", "OTPSealing", "OTPDurableStore",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ]
        ),
        // The durable store several servers share, on PostgreSQL through postgres-nio; TLS through NIOSSL.
        .target(
            name: "OTPAuthenticationPostgres",
            dependencies: [
                "OTPCore", "OTPAuthentication", "OTPSealing", "OTPDurableStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // WebAuthn's relying-party checks (W3C Web Authentication Level 3, sections 7.1 and 7.2): client
        // data, authenticator data, COSE keys and signatures (swift-crypto), none and packed
        // attestation with x5c chains (swift-certificates). No store: the passkey factor keeps the
        // ceremonies and the credentials.
        .target(
            name: "OTPWebAuthn",
            dependencies: [
                "CCBOR", "OTPCore", "OTPSealing",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // One outbound HTTP exchange through libcurl, on threads of its own: what the gateway
        // senders post and how a provider's key set is fetched. No product: OTPDelivery and
        // OTPFederation are its users.
        .target(name: "OTPOutbound", dependencies: ["CCurl", "OTPCore", .product(name: "NIOPosix", package: "swift-nio")]),
        // What the SMS and mail senders share, beside their own protocols: running the operator's
        // program (swift-subprocess), posting to a webhook (OTPOutbound), and keeping messages
        // and recipients out of errors and logs. No product: OTPSMS and OTPMail are its users.
        .target(
            name: "OTPDelivery",
            dependencies: [
                "OTPAuthentication", "OTPCore", "OTPOutbound",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        // The senders of email actions: SMTP through libcurl, a command (sendmail's interface), a
        // webhook, and a log sender for development.
        .target(
            name: "OTPMail",
            dependencies: [
                "OTPAuthentication", "OTPCore", "OTPDelivery", "OTPOutbound", "CCurl",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // SMS delivery for phone second factors: Twilio-compatible and webhook senders through
        // OTPOutbound, a command sender (a GSM modem's spooler), a log sender for development.
        .target(
            name: "OTPSMS",
            dependencies: [
                "OTPAuthentication", "OTPDelivery", "OTPOutbound",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // ID tokens of federated identity providers (Google, any OpenID Connect provider) checked
        // against their published keys (JWKS) with jwt-kit; the keys fetched through OTPOutbound.
        .target(
            name: "OTPFederation",
            dependencies: [
                "OTPAuthentication", "OTPCore", "OTPOutbound", "OTPSealing",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What both store-opening executables share: the `--db`, `--key-file` and `--previous-key-file`
        // options, `--db FILE|postgres://…` told apart and opened into one shape (no product).
        // The old names of OTPAuthentication and its stores, re-exporting them with deprecated type aliases.
        .target(name: "OTPEnrollment", dependencies: ["OTPAuthentication"]),
        .target(name: "OTPEnrollmentSQLite", dependencies: ["OTPEnrollment", "OTPAuthenticationSQLite"]),
        .target(name: "OTPEnrollmentPostgres", dependencies: ["OTPEnrollment", "OTPAuthenticationPostgres"]),
        .target(name: "OTPEnrollmentTestSupport", dependencies: ["OTPEnrollment", "OTPAuthenticationTestSupport"]),
        .target(
            name: "OTPAuthenticationDatabase",
            dependencies: [
                "OTPAuthentication", "OTPAuthenticationSQLite", "OTPAuthenticationPostgres", "OTPDurableStore", "OTPSealing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Google's Identity Toolkit REST API on the multi-factor service, as Hummingbird routes an
        // application mounts; ID tokens signed by jwt-kit.
        .target(
            name: "OTPServer",
            dependencies: [
                "OTPAuthentication", "OTPCore", "OTPSealing", "OTPQR", "OTPFederation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
                // RSA key generation for the signing key (jwt-kit signs with swift-crypto's RSA).
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            // In the binary: a server is one file to install, and pages never depend on its directory.
            resources: [
                .embedInCode("Pages/Templates/layout.mustache"),
                .embedInCode("Pages/Templates/sign-in.mustache"),
                .embedInCode("Pages/Templates/sign-up.mustache"),
                .embedInCode("Pages/Templates/second-factor.mustache"),
                .embedInCode("Pages/Templates/security.mustache"),
                .embedInCode("Pages/Templates/events.mustache"),
                .embedInCode("Pages/Templates/enroll-totp.mustache"),
                .embedInCode("Pages/Templates/recovery-codes.mustache"),
                .embedInCode("Pages/Templates/console-users.mustache"),
                .embedInCode("Pages/Templates/console-user.mustache"),
                .embedInCode("Pages/Templates/console-audit.mustache"),
                .embedInCode("Pages/Templates/message.mustache"),
                .embedInCode("Pages/Templates/reset-password.mustache"),
                .embedInCode("Pages/Templates/enroll-phone.mustache"),
                .embedInCode("Pages/Messages/en.json"),
                .embedInCode("Pages/Messages/pl.json"),
                .embedInCode("Pages/Assets/otpkit.css"),
                .embedInCode("Pages/Assets/pages.js"),
            ]
        ),

        // Executables.
        // What both command-line tools share: one failure type and exit-code table, standard
        // output and error, the QR drawing styles, ISO 8601 times and JSON output. ArgumentParser,
        // which both tools link anyway, so that the QR styles parse from one conformance.
        .target(
            name: "OTPCommandSupport",
            dependencies: ["OTPCore", "OTPQR", "OTPVault", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "TOTPCommand",
            dependencies: [
                "OTPCore", "OTPURI", "OTPQR", "OTPVault", "OTPCommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `totp enroll/signin/reseal/factors` run this executable: it links Foundation, NIO, SQLite,
        // PostgreSQL and (for the SMS senders of phone factors) libcurl, which would slow every
        // `totp code` start.
        .executableTarget(
            name: "TOTPEnrollmentCommand",
            dependencies: [
                "OTPCore", "OTPAuthentication", "OTPAuthenticationDatabase", "OTPDurableStore", "OTPSealing", "OTPQR",
                "OTPCommandSupport", "OTPSMS", "OTPFederation", "OTPVault",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // `totp import`, `totp export` and `totp add --qr` run this executable: the importers, Foundation,
        // swift-protobuf, libzbar and TurboJPEG stay out of every `totp code` start.
        .executableTarget(
            name: "TOTPTransferCommand",
            dependencies: [
                "OTPCore", "OTPURI", "OTPQR", "OTPQRScan", "OTPImport", "OTPVault", "OTPCommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // `otpkit-server`: the routes of OTPServer on a store `--db` names, run by swift-service-lifecycle.
        .executableTarget(
            name: "OTPServerCommand",
            dependencies: [
                "OTPServer", "OTPAuthenticationDatabase", "OTPAuthentication", "OTPSealing", "OTPCore", "OTPSMS", "OTPMail", "OTPFederation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),

        // Tests.
        // What every test target that runs a process or reads a fixture shares (no product).
        .target(
            name: "OTPTestUtilities",
            dependencies: ["OTPCore", .product(name: "Subprocess", package: "swift-subprocess"), .product(name: "Logging", package: "swift-log")],
            path: "Tests/OTPTestUtilities"
        ),
        // The throwaway PostgreSQL cluster Tests/test.sh starts, and a schema or database of each
        // test's own on it, for the store's tests and the CLI's (no product).
        .target(
            name: "OTPPostgresTestServer",
            dependencies: [
                "OTPAuthenticationPostgres", "OTPSealing", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/OTPPostgresTestServer"
        ),
        // A real HTTP server on loopback for the HTTP clients' tests, and a test OpenID Connect
        // provider on it (keys, JWKS, signed ID tokens) for every test of federated sign-in (no product).
        .target(
            name: "OTPLoopbackHTTP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/OTPLoopbackHTTP"
        ),
        // Separate processes for the cross-process replay and kill -9 tests.
        .executableTarget(
            name: "OTPAuthenticationStoreTestHelper",
            dependencies: [
                "OTPCore", "OTPAuthentication", "OTPAuthenticationSQLite", "OTPAuthenticationPostgres", "OTPSealing",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/OTPAuthenticationStoreTestHelper"
        ),
        .testTarget(name: "OTPTestUtilitiesTests", dependencies: ["OTPTestUtilities"]),
        .testTarget(name: "OTPCoreTests", dependencies: ["OTPCore", "OTPTestUtilities", "CSHALanesReference"]),
        // The lane kernels' differential check against OpenSSL, in C for speed in debug builds.
        .target(
            name: "CSHALanesReference", dependencies: ["CSHALanes", "CCryptoOpenSSL"], path: "Tests/CSHALanesReference",
            linkerSettings: [.linkedLibrary("crypto")]),
        .testTarget(name: "OTPURITests", dependencies: ["OTPURI", "OTPCore", "OTPTestUtilities"]),
        .testTarget(name: "OTPImportTests", dependencies: ["OTPImport", "OTPVault", "OTPURI", "OTPCore", "OTPTestUtilities"]),
        .testTarget(name: "OTPQRTests", dependencies: ["OTPQR", "OTPURI", "OTPCore", "OTPTestUtilities"]),
        .testTarget(name: "OTPVaultTests", dependencies: ["OTPVault", "OTPURI", "OTPCore", "OTPTestUtilities"]),
        // CPNG and CTurboJPEG to write the test images OTPQR cannot: inverted, several codes, JPEG.
        .testTarget(name: "OTPQRScanTests", dependencies: ["OTPQRScan", "OTPQR", "OTPTestUtilities", "CPNG", "CTurboJPEG"]),
        .testTarget(name: "OTPSealingTests", dependencies: ["OTPSealing", "OTPCore", "OTPTestUtilities"]),
        .testTarget(name: "OTPPhoneNumberTests", dependencies: ["OTPPhoneNumber", "OTPTestUtilities"]),
        .testTarget(
            name: "OTPAuthenticationTests",
            dependencies: [
                "OTPAuthentication", "OTPAuthenticationTestSupport", "OTPCore", "OTPURI", "OTPTestUtilities", "OTPWebAuthn",
                // The old module names, which RenamedModulesTests builds against.
                "OTPEnrollmentTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "OTPAuthenticationSQLiteTests",
            dependencies: [
                "OTPAuthenticationSQLite", "OTPAuthentication", "OTPAuthenticationTestSupport", "OTPDurableStore", "OTPSealing", "OTPCore",
                "OTPTestUtilities", .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ]
        ),
        .testTarget(
            name: "OTPAuthenticationDatabaseTests",
            dependencies: [
                "OTPAuthenticationDatabase", "OTPDurableStore", "OTPSealing", "OTPTestUtilities", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "OTPAuthenticationPostgresTests",
            dependencies: [
                "OTPAuthenticationPostgres", "OTPAuthentication", "OTPAuthenticationTestSupport", "OTPSealing", "OTPCore", "OTPTestUtilities",
                "OTPPostgresTestServer", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "OTPMailTests", dependencies: ["OTPMail", "OTPAuthentication", "OTPTestUtilities", "OTPLoopbackHTTP"]),
        .testTarget(
            name: "OTPWebAuthnTests",
            dependencies: [
                "OTPWebAuthn", "OTPCore", "OTPTestUtilities",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "OTPOutboundTests",
            dependencies: [
                "OTPOutbound", "OTPSMS", "OTPMail", "OTPAuthentication", "OTPTestUtilities", "OTPLoopbackHTTP",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "OTPSMSTests",
            dependencies: [
                "OTPSMS", "OTPDelivery", "OTPAuthentication", "OTPTestUtilities", "OTPLoopbackHTTP",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "OTPFederationTests",
            dependencies: [
                "OTPFederation", "OTPAuthentication", "OTPAuthenticationSQLite", "OTPSealing", "OTPCore", "OTPLoopbackHTTP", "OTPTestUtilities",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "OTPServerTests",
            dependencies: [
                "OTPServer", "OTPAuthentication", "OTPAuthenticationDatabase", "OTPFederation", "OTPSealing", "OTPCore", "OTPTestUtilities",
                "OTPPostgresTestServer", "OTPLoopbackHTTP", "OTPWebAuthn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Routes tested in process, with the service's clock injected.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // RSA keys of the test service accounts that mint custom tokens.
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "OTPCommandSupportTests", dependencies: ["OTPCommandSupport", "OTPQR", "OTPCore"]),
        .testTarget(
            name: "TOTPCommandTests",
            dependencies: [
                "TOTPCommand", "OTPCommandSupport", "OTPTestUtilities",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Read from the source tree (#filePath), so that regenerating them updates the committed files.
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "TOTPEnrollmentCommandTests",
            dependencies: [
                "TOTPEnrollmentCommand", "OTPTestUtilities", "OTPLoopbackHTTP", "OTPPostgresTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Read from the source tree (#filePath), so that regenerating them updates the committed files.
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// One set of Swift settings for every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    // Async functions run on their caller's executor instead of hopping to the global one at every
    // call, which the sign-in hot path relies on; everywhere, so no module behaves differently.
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]
// C and C++ targets (CPhoneNumber) take no Swift settings: SwiftPM leaves them out of their compiler
// commands, so the loop needs no exception for them.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
