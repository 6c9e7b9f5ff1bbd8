import Foundation
import Glibc
@testable import OTPCore
import Testing

/// Counts SIGUSR1 deliveries; the handler does nothing else, so that the signal only interrupts.
nonisolated(unsafe) private var interruptions = 0

/// Installs a no-op SIGUSR1 handler without `SA_RESTART`, so a blocked read or write returns
/// `EINTR` (or a short count) when the signal arrives, as it would under a shell's job control,
/// and runs `body` with the signal unblocked on this thread (the test runner's worker threads
/// block signals).
private func withInterruptingSignal<Result>(_ body: () throws -> Result) rethrows -> Result {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptions += 1 }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGUSR1, &action, nil)
    var signals = sigset_t()
    var previous = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGUSR1)
    pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
}

@Suite("POSIX reads and writes", .serialized)
struct POSIXFileTests {
    @Test("a read interrupted by signals is retried and returns the data")
    func readRetriesAfterInterrupt() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let reader = pthread_self()
        let before = interruptions
        let writer = descriptors[1]
        let helper = Thread {
            // Signals while the reader is blocked in read(2), then the data.
            for _ in 0..<20 {
                usleep(5_000)
                pthread_kill(reader, SIGUSR1)
            }
            _ = "hello".withCString { write(writer, $0, 5) }
        }
        helper.start()
        var buffer = [UInt8](repeating: 0, count: 5)
        let count = try withInterruptingSignal {
            try buffer.withUnsafeMutableBytes { try POSIXFile(descriptor: descriptors[0]).readFully(into: $0) }
        }
        #expect(count == 5)
        #expect(String(decoding: buffer, as: UTF8.self) == "hello")
        #expect(interruptions > before, "no signal arrived: the test did not interrupt the read")
    }

    @Test("a write interrupted by signals is retried until every byte is written, in order")
    func writeRetriesAfterInterrupt() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        // Four times a pipe's default capacity, so the writer blocks and is interrupted mid-way.
        let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let writerThread = pthread_self()
        let reading = descriptors[0]
        let received = ReceivedBytes()
        let done = DispatchSemaphore(value: 0)
        let helper = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while received.bytes.count < bytes.count {
                pthread_kill(writerThread, SIGUSR1)
                usleep(1_000)
                let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.bytes += chunk[0..<count]
            }
            done.signal()
        }
        let before = interruptions
        helper.start()
        try withInterruptingSignal {
            try bytes.withUnsafeBytes { try POSIXFile(descriptor: descriptors[1]).writeAll($0) }
        }
        done.wait()
        #expect(received.bytes == bytes)
        #expect(interruptions > before, "no signal arrived: the test did not interrupt the write")
    }

    @Test("a failure carries the errno of the call that failed, as the C library's text")
    func failures() throws {
        #expect(throws: POSIXFile.Failure(code: ENOENT)) { try POSIXFile.openForReading("/nonexistent/otpkit/file") }
        #expect(POSIXFile.Failure(code: ENOENT).description == "No such file or directory")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("posixfile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/file"
        let file = try POSIXFile.createNew(path, mode: 0o600)
        try Array("abc".utf8).withUnsafeBytes { try file.writeAll($0) }
        try file.synchronize()
        // Reading a descriptor opened for writing only fails with EBADF.
        var buffer = [UInt8](repeating: 0, count: 3)
        #expect(throws: POSIXFile.Failure(code: EBADF)) { try buffer.withUnsafeMutableBytes { try file.read(into: $0) } }
        try file.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "abc")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)

        do {
            _ = try POSIXFile.createNew(path, mode: 0o600)
            Issue.record("an existing file was opened for creation")
        } catch {
            #expect(error.isAlreadyExisting)
        }
        let reread = try POSIXFile.openForReading(path)
        defer { try? reread.close() }
        var contents = [UInt8](repeating: 0, count: 16)
        #expect(try contents.withUnsafeMutableBytes { try reread.readFully(into: $0) } == 3)
        #expect(Array(contents.prefix(3)) == Array("abc".utf8))
    }
}

/// Bytes the reading thread collects; `done` orders the accesses.
private final class ReceivedBytes: @unchecked Sendable {
    var bytes: [UInt8] = []
}
