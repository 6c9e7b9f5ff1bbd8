import Logging
import OTPAuthentication
import Synchronization

/// The provider's keys as last loaded, refreshed when they go stale or when a token names a key
/// id they lack, with one load at a time shared by every verification that needs it.
///
/// The state is only touched inside `Mutex.withLock` closures, which never wait: a load runs in a
/// task of its own that records its outcome under the lock before its waiters resume.
final class KeySetCache: Sendable {
    /// Refreshes for a key id the keys lack are at most this often, so that tokens with made-up
    /// key ids cannot turn this server into a client hammering the provider.
    static let unknownKeyRefreshInterval: Double = 30
    /// After a failed load the failure is repeated this long without asking the provider again,
    /// so that an outage does not become a fetch per sign-in.
    static let failureRetryInterval: Double = 5

    private struct State {
        var current: KeySet?
        var freshness: KeySetLoader.Freshness?
        var inFlight: InFlight?
        var nextGeneration = 1
        var lastUnknownKeyRefresh: Double?
        var lastFailure: (time: Double, error: IdentityTokenError)?
    }

    private struct InFlight: Sendable {
        let generation: Int
        let task: Task<Result<KeySet, IdentityTokenError>, Never>
    }

    private enum Step: Sendable {
        case use(KeySet)
        case wait(InFlight)
        case fail(IdentityTokenError)
        case refuse
    }

    private enum Reason {
        case stale
        case unknownKey
    }

    private let loader: KeySetLoader
    private let allowedAlgorithms: Set<String>
    private let clock: @Sendable () -> Double
    private let logger: Logger
    private let state = Mutex(State())

    init(loader: KeySetLoader, allowedAlgorithms: Set<String>, clock: @escaping @Sendable () -> Double, logger: Logger) {
        self.loader = loader
        self.allowedAlgorithms = allowedAlgorithms
        self.clock = clock
        self.logger = logger
    }

    /// The current keys: those held while still fresh, else freshly loaded.
    func keys() async throws(IdentityTokenError) -> KeySet {
        let (current, freshness) = state.withLock { ($0.current, $0.freshness) }
        // The file's fingerprint is read outside the lock: a stat is a system call.
        if let current, let freshness, loader.isCurrent(freshness, now: clock()) { return current }
        // Not nil: a stale refresh is never refused.
        return try await refresh(.stale, seen: current?.generation)!
    }

    /// The keys loaded again because a token named a key id that `seen` lacks; nil when no load
    /// is allowed yet (one was made for an unknown key id less than
    /// ``unknownKeyRefreshInterval`` ago) or the source is a file, which ``keys()`` already
    /// reads again whenever it changes.
    func keysAfterUnknownKey(seen: KeySet) async throws(IdentityTokenError) -> KeySet? {
        if case .file = loader.source { return nil }
        return try await refresh(.unknownKey, seen: seen.generation)
    }

    private func refresh(_ reason: Reason, seen: Int?) async throws(IdentityTokenError) -> KeySet? {
        let now = clock()
        let step: Step = state.withLock { state in
            // Loaded by someone else while this caller was deciding: those are the newest keys.
            if let current = state.current, current.generation != seen { return .use(current) }
            if let inFlight = state.inFlight { return .wait(inFlight) }
            switch reason {
            case .unknownKey:
                if let last = state.lastUnknownKeyRefresh, now - last < Self.unknownKeyRefreshInterval { return .refuse }
                state.lastUnknownKeyRefresh = now
            case .stale:
                if let failure = state.lastFailure, now - failure.time < Self.failureRetryInterval { return .fail(failure.error) }
            }
            let generation = state.nextGeneration
            state.nextGeneration += 1
            let inFlight = InFlight(generation: generation, task: Task { await self.load(generation: generation) })
            state.inFlight = inFlight
            return .wait(inFlight)
        }
        switch step {
        case .use(let keys): return keys
        case .fail(let error): throw error
        case .refuse: return nil
        case .wait(let inFlight): return try await inFlight.task.value.get()
        }
    }

    /// One load: runs in its own task, so that a verification cancelled while waiting does not
    /// cancel it for the others, and records its outcome before any waiter resumes.
    private func load(generation: Int) async -> Result<KeySet, IdentityTokenError> {
        let result: Result<(KeySet, KeySetLoader.Freshness), IdentityTokenError>
        switch await loader.load(now: clock()) {
        case .failure(let error):
            result = .failure(error)
        case .success(let loaded):
            do {
                let keys = try await KeySet.parse(loaded.document, allowedAlgorithms: allowedAlgorithms, generation: generation)
                result = .success((keys, loaded.freshness))
            } catch {
                result = .failure(.keysUnavailable("\(loader.shownSource) \(error.reason)"))
            }
        }
        let now = clock()
        state.withLock { state in
            guard state.inFlight?.generation == generation else { return }
            state.inFlight = nil
            switch result {
            case .success(let (keys, freshness)):
                state.current = keys
                state.freshness = freshness
                state.lastFailure = nil
            case .failure(let error):
                state.lastFailure = (now, error)
            }
        }
        switch result {
        case .success(let (keys, freshness)):
            var metadata: Logger.Metadata = ["source": "\(loader.shownSource)", "keys": "\(keys.usableCount)"]
            if case .until(let time) = freshness { metadata["valid_seconds"] = "\(Int(time - now))" }
            logger.debug("identity provider keys loaded", metadata: metadata)
            return .success(keys)
        case .failure(let error):
            logger.warning("identity provider keys unavailable: \(error)")
            return .failure(error)
        }
    }
}
