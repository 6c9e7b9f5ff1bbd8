internal import Synchronization

/// Runs concurrent requests of one kind together, as one set, so that a durable store answers many
/// of them with a few statements and one commit instead of several statements and a commit each.
///
/// A request that finds the batcher idle starts a batch at once, alone: a lone request never waits
/// for company. Requests that arrive while a batch runs queue up and form the next batch, up to
/// `maximumBatch` of them, so batches grow with the load and no timer is involved. The operation
/// answers a batch with one result per request, in order; a store runs the whole batch in one
/// transaction and fails every request of a batch whose commit fails, while refusing one request
/// (a replayed step, say) leaves the others alone.
///
/// With `splitsAbove`, a queue longer than that is split: the next batch takes half of it (at
/// least `splitsAbove`), and the rest forms the batch after. Callers that come back as soon as
/// they are answered (a server's clients, each signing in again) would otherwise move in one
/// wave: everyone in one batch, then everyone away at once while the store idles. Two halves take
/// turns instead, one batch running while the other's callers do the rest of their work: what a
/// store with one writer wants (SQLite), and not one whose every batch costs the database server
/// CPU on the same machine (PostgreSQL: more, smaller batches measured slower there).
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
        var draining = false
    }

    private let state = Mutex(State())
    private let maximumBatch: Int
    private let splitsAbove: Int?

    /// A batcher whose batches hold at most `maximumBatch` requests (at least one), and which
    /// splits a queue longer than `splitsAbove`, if given, in two.
    package init(maximumBatch: Int, splitsAbove: Int? = nil) {
        self.maximumBatch = max(1, maximumBatch)
        self.splitsAbove = splitsAbove.map { max(1, $0) }
    }

    /// How many requests wait for a batch to take them.
    package var queuedCount: Int { state.withLock { $0.queue.count } }

    /// How many of `queued` requests the next batch takes.
    private func batchSize(queued: Int) -> Int {
        guard let splitsAbove else { return maximumBatch }
        return min(maximumBatch, max(splitsAbove, (queued + 1) / 2))
    }

    /// Queues `request` and returns its result once the batch holding it has run.
    ///
    /// Every request of one batcher must come with the same operation: a batch runs with the one
    /// that came with the request that found the batcher idle.
    package func submit(_ request: Request, to run: @escaping Run) async throws(Failure) -> Response {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Response, Failure>, Never>) in
            let startsDraining = state.withLock { state in
                state.queue.append(Waiting(request: request, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
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
                if batch.isEmpty { state.draining = false }
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
