import Dispatch

/// Runs `body` to its end and waits for it: libFuzzer calls its entry point synchronously, and the
/// code under test (a verifier, a sender) is async. Blocking here is safe: libFuzzer's thread is
/// not one of the concurrency pool's.
package func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}
