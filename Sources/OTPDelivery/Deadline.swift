/// A send bounded by its sender's timeout, for the program runner (`DeliveryProgram`): the HTTP
/// exchange has libcurl's timeout instead.
package enum Deadline {
    /// The result of `work` when it ends within `timeout`. Past it, `work` is cancelled and
    /// awaited, so nothing it started outlives the call (a program, a connection), and its result
    /// is still taken when `keepLate` accepts it (an answer that arrived just in time); otherwise
    /// `nil`.
    package static func run<Outcome: Sendable>(
        within timeout: Duration, _ work: @escaping @Sendable () async -> Outcome, keepLate: @escaping @Sendable (Outcome) -> Bool
    ) async -> Outcome? {
        await withTaskGroup(of: Race<Outcome>.self) { group in
            group.addTask { .finished(await work()) }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return .timerCancelled }
                return .timerFired
            }
            let first = await group.next()!
            group.cancelAll()
            if case .finished(let outcome) = first { return outcome }
            for await case .finished(let outcome) in group where keepLate(outcome) {
                return outcome
            }
            return nil
        }
    }

    private enum Race<Outcome: Sendable>: Sendable {
        case finished(Outcome)
        case timerFired
        case timerCancelled
    }
}
