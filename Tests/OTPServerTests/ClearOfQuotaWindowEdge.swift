import Foundation
import Testing

/// Starts each test of a suite only when the hour it runs in has a few minutes left, waiting for
/// the next one otherwise.
///
/// The server's limits count in fixed windows aligned to the epoch, an hour by default, and so do
/// the service's quotas: a test that counts requests up to a limit and crosses an hour meanwhile
/// finds its counts started again, and fails for the clock alone (a CI rehearsal's five limit
/// tests did, at 10:00). The longest of them takes about a minute and a half on a busy machine.
struct ClearOfQuotaWindowEdge: SuiteTrait, TestTrait, TestScoping {
    /// The least time a test starts with before the hour ends.
    static let margin: Int64 = 240

    var isRecursive: Bool { true }

    // Each test waits on its own (the suite's scope does not), so two servers of one test start in
    // one window.
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void) async throws {
        if !test.isSuite {
            let left = 3_600 - Int64(Date().timeIntervalSince1970) % 3_600
            if left < Self.margin { try await Task.sleep(for: .seconds(left + 1)) }
        }
        try await function()
    }
}

extension Trait where Self == ClearOfQuotaWindowEdge {
    /// ``ClearOfQuotaWindowEdge``.
    static var clearOfQuotaWindowEdge: Self { Self() }
}
