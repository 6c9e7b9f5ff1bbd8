import OTPDurableStore
import OTPTestUtilities
import Synchronization
import Testing

/// The batcher both durable stores decide concurrent sign-ins with: every request answered with
/// its own result, one batch at a time, batches formed from what queued meanwhile, and a long
/// queue split in halves when asked.
@Suite("Durable stores: operation batcher")
struct OperationBatcherTests {
    /// What a test's operation saw: the batches it was given, and how many ran at once.
    struct Record {
        var batches: [[Int]] = []
        var running = 0
        var mostAtOnce = 0
        var gateOpen = false
    }

    /// The record, shared by the operation's batches and the test.
    final class Recorder: Sendable {
        private let record = Mutex(Record())

        func withLock<Value>(_ body: (inout Record) -> Value) -> Value {
            record.withLock { body(&$0) }
        }
    }

    /// An operation that records its batches and holds each until the gate opens; it answers
    /// every request with its double, or refuses the odd ones.
    static func operation(_ record: Recorder) -> OperationBatcher<Int, Int, BatchRefusal>.Run {
        { requests in
            record.withLock { record in
                record.batches.append(requests)
                record.running += 1
                record.mostAtOnce = max(record.mostAtOnce, record.running)
            }
            while !record.withLock({ $0.gateOpen }) { try? await Task.sleep(for: .milliseconds(1)) }
            record.withLock { $0.running -= 1 }
            return requests.map { $0.isMultiple(of: 2) ? .success($0 * 2) : .failure(BatchRefusal(request: $0)) }
        }
    }

    struct BatchRefusal: Error, Equatable {
        let request: Int
    }

    /// Waits until `condition` holds of the record; a test whose batches never start fails by
    /// its time limit, which cancels the wait.
    static func waitUntil(_ record: Recorder, _ condition: (Record) -> Bool) async throws {
        while !record.withLock({ condition($0) }) { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test("a batch runs alone at once; what queues meanwhile waits for it, then goes out in batches of at most the maximum", .hangGuard)
    func oneBatchAtATime() async throws {
        let batcher = OperationBatcher<Int, Int, BatchRefusal>(maximumBatch: 3)
        let record = Recorder()
        let run = Self.operation(record)
        let requests = 0..<8
        try await withThrowingTaskGroup(of: (Int, Result<Int, BatchRefusal>).self) { group in
            // However the test ends, the held batches finish, so that the group can.
            defer { record.withLock { $0.gateOpen = true } }
            for request in requests {
                group.addTask {
                    do throws(BatchRefusal) {
                        return (request, .success(try await batcher.submit(request, to: run)))
                    } catch {
                        return (request, .failure(error))
                    }
                }
                // The first finds the batcher idle and runs alone.
                if request == 0 { try await Self.waitUntil(record) { $0.batches.count == 1 } }
            }
            // The rest queue behind it; none of them may start a batch of its own.
            while batcher.queuedCount < requests.count - 1 { try await Task.sleep(for: .milliseconds(1)) }
            try await Task.sleep(for: .milliseconds(20))
            #expect(record.withLock { $0.batches.count } == 1, "a batch started while the first was held")
            record.withLock { $0.gateOpen = true }
            for try await (request, result) in group {
                #expect(result == (request.isMultiple(of: 2) ? .success(request * 2) : .failure(BatchRefusal(request: request))))
            }
        }
        let seen = record.withLock { $0 }
        #expect(seen.mostAtOnce == 1)
        #expect(seen.batches.map(\.count) == [1, 3, 3, 1], "the seven queued in batches of at most three: \(seen.batches)")
        #expect(seen.batches.flatMap { $0 }.sorted() == Array(requests), "every request in exactly one batch: \(seen.batches)")
    }

    @Test("a queue longer than splitsAbove goes out in halves, each at least splitsAbove", .hangGuard)
    func splitQueue() async throws {
        let batcher = OperationBatcher<Int, Int, BatchRefusal>(maximumBatch: 8, splitsAbove: 2)
        let record = Recorder()
        let run = Self.operation(record)
        try await withThrowingTaskGroup(of: Void.self) { group in
            defer { record.withLock { $0.gateOpen = true } }
            for request in 0..<10 {
                group.addTask { _ = try? await batcher.submit(request, to: run) }
                if request == 0 { try await Self.waitUntil(record) { $0.batches.count == 1 } }
            }
            while batcher.queuedCount < 9 { try await Task.sleep(for: .milliseconds(1)) }
            record.withLock { $0.gateOpen = true }
            try await group.waitForAll()
        }
        // Nine queued behind the first: half (five), then half of four (two, the least), then two.
        #expect(record.withLock { $0.batches.map(\.count) } == [1, 5, 2, 2])
    }
}
