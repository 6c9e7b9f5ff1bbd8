internal import Glibc

/// Standard streams, terminal checks and file access on the C library.
///
/// `code` and `verify` run without Foundation: linking it adds thousands of protocol conformance
/// records that the Swift runtime scans at start-up, and scripts call these commands once per code.
enum Console {
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    static var standardOutputIsTerminal: Bool { isTerminal(STDOUT_FILENO) }

    static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Prints `command: message` as a single line, whatever line breaks the message contains.
    static func reportFailure(_ message: String, command: String) {
        let oneLine = message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
        writeError("\(command): \(oneLine)\n")
    }

    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Standard input once read, so that the parser path can run after the fast path has read it.
    nonisolated(unsafe) private static var standardInput: [UInt8]?

    /// Reads a whole file (or standard input for `nil`).
    static func read(path: String?) throws(CommandFailure) -> [UInt8] {
        if path == nil, let standardInput { return standardInput }
        let bytes = try readUncached(path: path)
        if path == nil { standardInput = bytes }
        return bytes
    }

    private static func readUncached(path: String?) throws(CommandFailure) -> [UInt8] {
        let descriptor: Int32
        if let path {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .noInput("cannot read '\(path)': \(errorText())") }
        } else {
            descriptor = STDIN_FILENO
        }
        defer { if path != nil { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .noInput("cannot read \(path.map { "'\($0)'" } ?? "standard input"): \(errorText())")
            }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= 1 << 20 else {
                throw .usage("\(path.map { "'\($0)'" } ?? "standard input") is larger than 1 MiB: expected a secret or a URI")
            }
        }
        chunk.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) }
        return bytes
    }

    /// Writes `bytes` to `path` through a temporary file renamed into place, so a failure never
    /// leaves a half-written file behind.
    static func writeFile(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotCreate("cannot write '\(path)': \(errorText())") }
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errorText()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
        if close(descriptor) != 0, failure == nil { failure = errorText() }
        if failure == nil, rename(temporary, path) != 0 { failure = errorText() }
        if let failure {
            unlink(temporary)
            throw .cannotCreate("cannot write '\(path)': \(failure)")
        }
    }

    /// Sleeps until the system clock reaches the next whole second.
    static func sleepToNextSecond() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000_000 - now.tv_nsec)
        var left = timespec()
        while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
    }

    /// Makes Ctrl-C (and `kill`) end a long-running command even when the parent process started
    /// it with those signals blocked or ignored; on a terminal, the handler first moves past the
    /// line being redrawn so the shell prompt starts on a clean line.
    static func stopOnInterrupt(finishingLine: Bool) {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] {
            sigaddset(&signals, number)
            signal(number, SIG_DFL)
        }
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        guard finishingLine else { return }
        let handler: @convention(c) (Int32) -> Void = { number in
            var newline: UInt8 = 10
            _ = Glibc.write(STDOUT_FILENO, &newline, 1)
            _exit(128 + number)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
