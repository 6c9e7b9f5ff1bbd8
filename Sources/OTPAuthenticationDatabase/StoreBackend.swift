internal import Logging
internal import OTPSealing
internal import OTPAuthenticationPostgres
internal import OTPAuthenticationSQLite
package import OTPDurableStore

/// A kind of database `--db` can name, found by the scheme of its argument: the registry that
/// decides which store opens it.
///
/// A new backend is a store conforming to ``DurableAuthStore`` and one entry in
/// ``registered``.
package struct StoreBackend: Sendable, Equatable {
    /// The backend's name in messages.
    package let name: String
    /// The URL schemes it serves, in lower case; none for the backend of plain file paths.
    package let schemes: [String]
    /// Where a server keeps its signing key when none is given, or `nil` when every server of the
    /// database must be told (a database several servers share).
    let defaultSigningKeyPath: @Sendable (_ argument: String) -> String?
    /// Opens the store at `argument`.
    let open: @Sendable (_ argument: String, _ sealer: SecretSealer, _ poolSize: Int, _ logger: Logger) async throws -> any DurableAuthStore
    /// Why no store can open it: set for a URL whose scheme no backend serves.
    package let refusal: UnsupportedStoreScheme?

    init(
        name: String, schemes: [String], defaultSigningKeyPath: @escaping @Sendable (String) -> String?,
        refusal: UnsupportedStoreScheme? = nil,
        open: @escaping @Sendable (String, SecretSealer, Int, Logger) async throws -> any DurableAuthStore
    ) {
        self.name = name
        self.schemes = schemes
        self.defaultSigningKeyPath = defaultSigningKeyPath
        self.refusal = refusal
        self.open = open
    }

    package static func == (lhs: StoreBackend, rhs: StoreBackend) -> Bool { lhs.name == rhs.name }

    /// Every backend: those of URL schemes, then the one of file paths, which takes whatever no
    /// scheme claims.
    package static let registered: [StoreBackend] = [.postgres, .sqlite]

    /// The backend of `argument`: the one whose scheme it starts with (`scheme:` in any letter
    /// case), one that refuses it for a URL (`scheme://`) of a scheme none serves, else the one of
    /// file paths.
    package static func backend(for argument: String) -> StoreBackend {
        let scheme = argument.prefix { $0 != ":" && $0 != "/" }
        let rest = argument.dropFirst(scheme.count)
        let paths = registered.first { $0.schemes.isEmpty } ?? .sqlite
        guard rest.hasPrefix(":"), !scheme.isEmpty else { return paths }
        if let backend = registered.first(where: { $0.schemes.contains(scheme.lowercased()) }) { return backend }
        guard rest.hasPrefix("://") else { return paths }
        let refusal = UnsupportedStoreScheme(scheme: scheme.lowercased(), supported: registered.flatMap(\.schemes))
        return StoreBackend(
            name: refusal.scheme, schemes: [refusal.scheme], defaultSigningKeyPath: { _ in nil }, refusal: refusal,
            open: { _, _, _, _ in throw refusal })
    }
}

extension StoreBackend {
    /// An SQLite file, created when missing; a warning for a file other users may read.
    package static let sqlite = StoreBackend(
        name: "SQLite", schemes: [], defaultSigningKeyPath: { $0 + ".signing-key" },
        open: { path, sealer, _, logger in
            let store = try await SQLiteAuthStore.open(path: path, sealer: sealer)
            for file in SQLiteAuthStore.filesReadableByOthers(path: path) {
                logger.warning(
                    "the database file \(file) is readable by other users, and it holds password hashes, email addresses, phone numbers and session ids: run chmod 600 on it"
                )
            }
            return store
        })

    /// A PostgreSQL database named by a libpq URL, which takes what it leaves out from libpq's
    /// variables (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, …), as libpq does, so the password
    /// need not be on the command line. A misspelt URL (`postgres:/host`) comes here too, and the
    /// store says what is wrong with it, rather than becoming a new SQLite file.
    package static let postgres = StoreBackend(
        name: "PostgreSQL", schemes: ["postgres", "postgresql"], defaultSigningKeyPath: { _ in nil },
        open: { url, sealer, poolSize, logger in
            try await PostgresAuthStore.open(
                url: url, environment: PostgresAuthStore.processEnvironment, sealer: sealer, poolSize: poolSize, logger: logger)
        })
}

/// A `--db` URL whose scheme no store serves: refused before anything is created, without
/// repeating the URL (which may hold a password).
package struct UnsupportedStoreScheme: ClassifiedStoreError {
    /// The scheme, in lower case.
    package let scheme: String
    /// The schemes the registered backends serve.
    package let supported: [String]

    package var kind: StoreFailureKind { .configuration }

    package var description: String {
        "no store serves \(scheme):// URLs: give an SQLite file's path, or a URL of \(supported.map { $0 + "://" }.joined(separator: ", "))"
    }
}
