public import Logging
public import OTPSealing
internal import Synchronization

/// A signing key file as a running server follows it: loaded at start, and loaded again when a
/// rotation (by `otpkit-server rotate-signing-key`, or any server sharing the file) replaced it.
///
/// Give ``changedKeys()`` to the `IDTokenIssuer` as its `refresh`, and have something call
/// `IDTokenIssuer.refreshKeys()` every ``checkInterval``: the issuer then takes up a rotation
/// within that interval, and at once when a token names the new key. Asking costs one `stat`
/// while the file is unchanged.
public final class IDTokenKeyFileMonitor: Sendable {
    /// How often a server looks at the file, in seconds. Far below ``IDTokenKeyFile``'s retention
    /// beyond the token lifetime, so a retired key outlives every token a late server signs.
    public static let checkInterval = 30

    /// The file.
    public let path: String
    private let sealer: SecretSealer
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        /// The version of the file the keys in use came from.
        var loaded: IDTokenKeyFile.Stamp
        /// The last problem logged, so a file that stays broken is reported once, not every look.
        var problem: IDTokenKeyFileError?
    }

    /// The keys in the file at `path`, made there when there is no file (with a key that signs with
    /// `algorithm`), and a monitor of it.
    ///
    /// - Throws: ``IDTokenKeyFileError`` saying what is wrong with the file and what to do.
    public static func start(
        path: String, sealer: SecretSealer, logger: Logger, algorithm: IDTokenSigningAlgorithm = .rs256
    ) throws(IDTokenKeyFileError) -> (IDTokenSigningKeySet, IDTokenKeyFileMonitor) {
        let (keys, stamp) = try IDTokenKeyFile.loadOrCreateVersion(path: path, sealer: sealer, algorithm: algorithm)
        return (keys, IDTokenKeyFileMonitor(path: path, sealer: sealer, logger: logger, loaded: stamp))
    }

    private init(path: String, sealer: SecretSealer, logger: Logger, loaded: IDTokenKeyFile.Stamp) {
        self.path = path
        self.sealer = sealer
        self.logger = logger
        state = Mutex(State(loaded: loaded))
    }

    /// The keys in the file when it is not the version last loaded, else `nil`.
    ///
    /// A file that is missing or cannot be opened is logged and answers `nil`: the server keeps
    /// the keys it has rather than stop signing because of a bad edit.
    public func changedKeys() -> IDTokenSigningKeySet? {
        let loaded = state.withLock { $0.loaded }
        guard IDTokenKeyFile.Stamp(path: path) != loaded else { return nil }
        let result: Result<(IDTokenSigningKeySet, IDTokenKeyFile.Stamp)?, IDTokenKeyFileError> = Result {
            () throws(IDTokenKeyFileError) in try IDTokenKeyFile.load(path: path, sealer: sealer)
        }
        let problem: IDTokenKeyFileError
        switch result {
        case .success(let (keys, stamp)?):
            let changed = state.withLock { (state) in
                defer {
                    state.loaded = stamp
                    state.problem = nil
                }
                return state.loaded != stamp
            }
            guard changed else { return nil }
            logger.info(
                "ID token signing keys reloaded",
                metadata: [
                    "file": "\(path)", "signing-kid": "\(keys.signing.kid)", "signing-algorithm": "\(keys.signing.algorithm.rawValue)",
                    "keys": "\(keys.keys.count)",
                ])
            return keys
        case .success(nil):
            problem = .missing(path: path)
        case .failure(let error):
            problem = error
        }
        let isNew = state.withLock { (state) in
            defer { state.problem = problem }
            return state.problem != problem
        }
        if isNew { logger.error("keeping the ID token signing keys in use", metadata: ["reason": "\(problem.description)"]) }
        return nil
    }
}
