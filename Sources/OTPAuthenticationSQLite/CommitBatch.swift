internal import Synchronization

/// The members of one shared transaction, waiting for the commit that makes their writes durable.
///
/// Each member runs its own operation on the connection (under the store's lock, inside its own
/// savepoint) and then waits here, outside the lock, so the next member can run. Whoever ends the
/// transaction, by `COMMIT` or by a failure, finishes the batch and so answers every member at once.
final class CommitBatch: Sendable {
    private enum State {
        case open(members: Int, waiters: [CheckedContinuation<Result<Void, SQLiteAuthStoreError>, Never>])
        case finished(Result<Void, SQLiteAuthStoreError>)
    }

    private let state = Mutex(State.open(members: 0, waiters: []))

    /// Counts a member whose operation ran in the transaction; returns how many have.
    func join() -> Int {
        state.withLock { state in
            guard case .open(let members, let waiters) = state else { return 0 }
            state = .open(members: members + 1, waiters: waiters)
            return members + 1
        }
    }

    /// Records how the transaction ended and answers every member waiting.
    func finish(_ outcome: Result<Void, SQLiteAuthStoreError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<Void, SQLiteAuthStoreError>, Never>] in
            guard case .open(_, let waiters) = state else { return [] }
            state = .finished(outcome)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Returns once the transaction has ended: normally when its commit is on disk, or with the
    /// error that ended it (the member's writes are then not in the database).
    func committed() async throws(SQLiteAuthStoreError) {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, SQLiteAuthStoreError>, Never>) in
            let finished = state.withLock { state -> Result<Void, SQLiteAuthStoreError>? in
                switch state {
                case .finished(let outcome):
                    return outcome
                case .open(let members, var waiters):
                    waiters.append(continuation)
                    state = .open(members: members, waiters: waiters)
                    return nil
                }
            }
            if let finished { continuation.resume(returning: finished) }
        }
        try outcome.get()
    }
}
