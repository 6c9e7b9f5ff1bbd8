/// Standard output of an interactive child as it arrives, shared between the task that drains
/// the pipe and the session that waits for prompts.
actor OutputCollector {
    private(set) var bytes: [UInt8] = []
    private(set) var isFinished = false

    func append(_ chunk: [UInt8]) {
        bytes += chunk
    }

    func finish() {
        isFinished = true
    }
}
