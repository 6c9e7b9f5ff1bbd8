import Subprocess

/// The running child of `ProcessRunner.converse`, as its body sees it.
public struct ProcessSession: Sendable {
    let collector: OutputCollector
    let writer: StandardInputWriter
    let sendSignal: @Sendable (Signal) throws -> Void

    /// The child's process id, for tests that watch it from outside.
    public let processIdentifier: Int32

    public struct PromptMissing: Error, CustomStringConvertible {
        public let prompt: String
        public let output: String
        public let reason: String
        public var description: String { "\(reason) before printing \(prompt.debugDescription): \(output.debugDescription)" }
    }

    /// Waits until standard output contains `prompt` and returns all of it so far. Fails when the
    /// child ends its output first, or after `timeout`, which a child waiting for input that never
    /// prints the prompt would otherwise make a hang.
    @discardableResult
    public func waitForOutput(containing prompt: String, timeout: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = String(decoding: await collector.bytes, as: UTF8.self)
            if text.contains(prompt) { return text }
            if await collector.isFinished {
                throw PromptMissing(prompt: prompt, output: text, reason: "the child closed its standard output")
            }
            if ContinuousClock.now >= deadline {
                throw PromptMissing(prompt: prompt, output: text, reason: "no such output within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Writes `text` to the child's standard input.
    public func write(_ text: String) async throws {
        _ = try await writer.write(Array(text.utf8))
    }

    /// Closes the child's standard input: it reads end of file.
    public func finishInput() async throws {
        try await writer.finish()
    }

    /// Sends `signal` (such as SIGKILL, for crash tests) to the child.
    public func send(signal: Int32) throws {
        try sendSignal(Signal(rawValue: signal))
    }

    /// Whether the child has closed its standard output, which it does at the latest when it ends.
    public var isOutputClosed: Bool {
        get async { await collector.isFinished }
    }
}
