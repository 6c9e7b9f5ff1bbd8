package import Logging
package import OTPSealing

/// Where `--db` points (`totp-enrollment` and `otpkit-server` take the same argument): an SQLite
/// file, or a database named by a URL whose scheme a ``StoreBackend`` serves.
package struct DatabaseLocation: Equatable, Sendable {
    /// The backend that opens it.
    package let backend: StoreBackend
    /// The `--db` argument as given.
    package let argument: String

    /// The location of `argument`, whose backend ``StoreBackend/backend(for:)`` finds.
    package init(_ argument: String) {
        self.backend = StoreBackend.backend(for: argument)
        self.argument = argument
    }

    /// The `--db` argument as the commands' hints repeat it: a URL may hold a password, so only
    /// its scheme is shown.
    package var shownArgument: String {
        backend.schemes.isEmpty ? argument : argument.prefix { $0 != ":" } + "://…"
    }

    /// Where a server keeps its signing key when none is given, or `nil` when it must be given.
    package var defaultSigningKeyPath: String? {
        backend.defaultSigningKeyPath(argument)
    }

    /// Opens the store, which checks the schema and that `sealer` opens every row, and warns
    /// through `logger` about what the operator should know (a file others may read).
    ///
    /// - Parameters:
    ///   - sealer: The sealing keys.
    ///   - poolSize: The connections a database server's pool keeps.
    ///   - logger: Where the store logs.
    /// - Throws: The backend's own error, a `ClassifiedStoreError`.
    package func open(sealer: SecretSealer, poolSize: Int, logger: Logger) async throws -> any DurableAuthStore {
        try await backend.open(argument, sealer, poolSize, logger)
    }
}
