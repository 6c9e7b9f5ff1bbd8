internal import Logging
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPAuthenticationDatabase
internal import OTPSealing

extension DatabaseLocation {
    /// One command runs one store operation at a time; the second connection only spares a wait
    /// when the pool replaces one the server closed.
    static let commandPoolSize = 2

    /// Opens the store as ``DatabaseLocation/open(sealer:poolSize:logger:)`` does, its failure
    /// reported as the command's.
    func opening(sealer: SecretSealer, logger: Logger) async throws(CommandFailure) -> any DurableAuthStore {
        do {
            return try await open(sealer: sealer, poolSize: Self.commandPoolSize, logger: logger)
        } catch {
            throw CommandFailure(storeFailure: error) ?? .ioError("\(error)")
        }
    }
}

extension DurableAuthStore {
    /// Runs `body` on the store (reads, re-sealing), reporting a store failure as the command's
    /// failure.
    func running<Result>(_ body: (Self) async throws -> Result) async throws(CommandFailure) -> Result {
        do {
            return try await body(self)
        } catch {
            throw CommandFailure(storeFailure: error) ?? .ioError("\(error)")
        }
    }
}
