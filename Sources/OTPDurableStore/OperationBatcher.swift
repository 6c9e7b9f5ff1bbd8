internal import Synchronization

/// Runs concurrent requests of one kind together, as one set, so that a durable store answers many
/// of them with a few statements and one commit instead of several statements and a commit each.
///
/// A request that finds fewer than `maximumConcurrentBatches` batches running starts one at once,
/// alone: a lone request never waits for company. Requests that arrive while that many run queue
/// up and form the next batch, up to `maximumBatch` of them, so batches grow with the load and no
/// timer is involved. One batch at a time suits a store with one writer (SQLite); a database that
/// commits concurrent transactions in one flush of its log (PostgreSQL) answers sooner with a few
/// at once, since a batch mostly waits: for its round trips and for the disk. The operation
/// answers a batch with one result per request, in order; a store runs the whole batch in one
/// transaction and fails every request of a batch whose commit fails, while refusing one request
/// (a replayed step, say) leaves the others alone.
///
/// A queue longer than `splitsAbove` is split: the next batch takes half of it (at least
/// `splitsAbove`), and the rest forms the batch after. Callers that come back as soon as they are
/// answered (a server's clients, each signing in again) would otherwise move in one wave:
/// everyone in one batch, then everyone away at once while the store idles. Two halves take
/// turns instead, one batch running while the other's callers do the rest of their work.
///
/// The operation comes with each request rather than at creation, so that a store can keep its
/// batchers as constants and pass a closure over itself that lives only as long as the call.
package final class OperationBatcher<Request: Sendable, Response: Sendable, Failure: Error>: Sendable {
    /// An operation that answers a batch: one result per request, in the order of `requests`.
    package typealias Run = @Sendable (_ requests: [Request]) async -> [Result<Response, Failure>]

    private struct Waiting: Sendable {
        let request: Request
        let continuation: CheckedContinuation<Result<Response, Failure>, Never>
    }

    private struct State: Sendable {
        var queue: [Waiting] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let maximumBatch: Int
    private let maximumConcurrentBatches: Int
    private let splitsAbove: Int

    /// A batcher whose batches hold at most `maximumBatch` requests, with at most
    /// `maximumConcurrentBatches` running at once, and a queue longer than `splitsAbove` split in
    /// two (each at least one).
    package init(maximumBatch: Int, maximumConcurrentBatches: Int = 1, splitsAbove: Int = 32) {
        self.maximumBatch = max(1, maximumBatch)
        self.maximumConcurrentBatches = max(1, maximumConcurrentBatches)
        self.splitsAbove = max(1, splitsAbove)
    }

    /// How many requests wait for a batch to take them.
    package var queuedCount: Int { state.withLock { $0.queue.count } }

    /// How many of `queued` requests the next batch takes.
    private func batchSize(queued: Int) -> Int {
        min(maximumBatch, max(splitsAbove, (queued + 1) / 2))
    }

    /// Queues `request` and returns its result once the batch holding it has run.
    ///
    /// Every request of one batcher must come with the same operation: a batch runs with the one
    /// that came with the request that found the batcher idle.
    package func submit(_ request: Request, to run: @escaping Run) async throws(Failure) -> Response {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Response, Failure>, Never>) in
            let startsDraining = state.withLock { state in
                state.queue.append(Waiting(request: request, continuation: continuation))
                guard state.running < maximumConcurrentBatches else { return false }
                state.running += 1
                return true
            }
            // The drain runs in a task of its own, not in the submitter's: the submitter that
            // found the batcher idle is answered with its own batch, not after everyone else's.
            if startsDraining { Task { await self.drain(run) } }
        }
        return try result.get()
    }

    private func drain(_ run: Run) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = Array(state.queue.prefix(batchSize(queued: state.queue.count)))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.running -= 1 }
                return batch
            }
            guard !batch.isEmpty else { return }
            let results = await run(batch.map(\.request))
            precondition(results.count == batch.count, "a batch answers every request it holds")
            for (waiting, result) in zip(batch, results) {
                waiting.continuation.resume(returning: result)
            }
        }
    }
}
