internal import Glibc
internal import OTPCommandSupport
internal import OTPCore

/// Files, the environment, the clock and signals on the C library; output goes through
/// `StandardStreams`.
///
/// `code` and `verify` run without Foundation: linking it adds thousands of protocol conformance
/// records that the Swift runtime scans at start-up, and scripts call these commands once per code.
enum Console {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The largest input read: a secret or a URI is far smaller, so more is a mistake.
    private static let maximumInputByteCount = 1 << 20

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
        let name = path.map { "'\($0)'" } ?? "standard input"
        let file: POSIXFile
        do {
            file = try path.map(POSIXFile.openForReading) ?? .standardInput
        } catch {
            throw .noInput("cannot read \(name): \(error)")
        }
        defer { if path != nil { try? file.close() } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { chunk.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            } catch {
                throw .noInput("cannot read \(name): \(error)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumInputByteCount else {
                throw .usage("\(name) is larger than 1 MiB: expected a secret or a URI")
            }
        }
        return bytes
    }

    /// Writes `bytes` to `path` through a temporary file renamed into place, so a failure never
    /// leaves a half-written file behind. The file is readable by its owner only: the QR images
    /// written here hold the secret.
    static func writeFile(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let temporary = "\(path).tmp-\(getpid())"
        do {
            let file = try POSIXFile.createNew(temporary, mode: 0o600)
            do {
                try bytes.withUnsafeBytes { try file.writeAll($0) }
                try file.synchronize()
            } catch {
                try? file.close()
                throw error
            }
            try file.close()
            if rename(temporary, path) != 0 { throw POSIXFile.Failure(code: errno) }
        } catch {
            unlink(temporary)
            throw .cannotCreate("cannot write '\(path)': \(error)")
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
            // Only async-signal-safe calls here: one raw write, then _exit.
            var newline: UInt8 = 10
            _ = Glibc.write(STDOUT_FILENO, &newline, 1)
            _exit(128 + number)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
