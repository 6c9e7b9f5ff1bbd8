internal import Logging
internal import OTPCommandSupport
internal import OTPEnrollment
internal import OTPEnrollmentDatabase
internal import OTPSealing

extension EnrollmentDatabase {
    /// One command runs one store operation at a time; the second connection only spares a wait
    /// when the pool replaces one the server closed.
    static let commandPostgresPoolSize = 2

    /// Opens the store at `location` as ``EnrollmentDatabase/open(_:sealer:postgresPoolSize:logger:)``
    /// does, its failure reported as the command's.
    static func opening(_ location: DatabaseLocation, sealer: SecretSealer, logger: Logger) async throws(CommandFailure) -> EnrollmentDatabase {
        do {
            return try await open(location, sealer: sealer, postgresPoolSize: commandPostgresPoolSize, logger: logger)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs `body`'s reads, reporting a store failure as the command's failure.
    func reading<Result>(_ body: (any EnrollmentStore) async throws -> Result) async throws(CommandFailure) -> Result {
        do {
            return try await body(store)
        } catch {
            throw CommandFailure(storeFailure: error) ?? .ioError("\(error)")
        }
    }

    /// Runs one of the database's own operations (re-sealing, key usage), its failure reported as the command's.
    func running<Result>(_ body: (EnrollmentDatabase) async throws(EnrollmentDatabaseError) -> Result) async throws(CommandFailure) -> Result {
        do {
            return try await body(self)
        } catch {
            throw CommandFailure(error)
        }
    }
}

extension CommandFailure {
    /// Either store's failure as the store's own initialiser classifies it.
    init(_ error: EnrollmentDatabaseError) {
        switch error {
        case .sqlite(let error): self.init(error)
        case .postgres(let error): self.init(error)
        }
    }
}
