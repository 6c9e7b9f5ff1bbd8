internal import Dispatch
internal import Synchronization

/// Where every password hash and check of a service runs: on threads of its own, never the
/// cooperative pool, at most ``PasswordSettings/maximumConcurrentHashes`` at once and at most
/// ``PasswordSettings/maximumWaitingHashes`` waiting; beyond that a request is refused at once.
///
/// A hash costs scrypt's 64 MiB and a fifth of a second of a core: run on the cooperative pool,
/// a few hundred requests at once took every thread and the server stopped answering anything
/// else. Bounded here, the other cores stay for the rest of the server.
final class PasswordHashingGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Bool, Never>] = []
        var completed = 0
    }

    private enum Admission {
        case now, queued, refused
    }

    let maximumConcurrent: Int
    let maximumWaiting: Int
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "OTPKit.password-hashing", qos: .userInitiated, attributes: .concurrent)
    /// Set on the gate's queue, so that a test can tell its threads from the cooperative pool's.
    static let queueKey = DispatchSpecificKey<Bool>()

    init(maximumConcurrent: Int, maximumWaiting: Int) {
        self.maximumConcurrent = maximumConcurrent
        self.maximumWaiting = maximumWaiting
        queue.setSpecific(key: Self.queueKey, value: true)
    }

    /// How many hashes run and wait now, and how many ran to the end since the gate was made.
    var load: (running: Int, waiting: Int, completed: Int) {
        state.withLock { ($0.running, $0.waiting.count, $0.completed) }
    }

    /// Runs `work` on the gate's threads once a place is free.
    /// - Throws: ``AuthErrorCode/tooManyRequests`` when ``maximumWaiting`` requests wait already.
    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async throws(AuthError) -> Result {
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let admission = state.withLock { state -> Admission in
                if state.running < maximumConcurrent {
                    state.running += 1
                    return .now
                }
                guard state.waiting.count < maximumWaiting else { return .refused }
                state.waiting.append(continuation)
                return .queued
            }
            switch admission {
            case .now: continuation.resume(returning: true)
            case .refused: continuation.resume(returning: false)
            case .queued: break
            }
        }
        guard admitted else {
            throw AuthError(.tooManyRequests, "the server is busy checking passwords: try again in a few seconds")
        }
        let result = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
        // The place goes to the longest waiting request, or is given back.
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.completed += 1
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: true)
        return result
    }
}
