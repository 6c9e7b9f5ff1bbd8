internal import Glibc

// On Glibc directly rather than apple/swift-system's `FileDescriptor`, which also retries EINTR
// and throws errno: writing through `FileDescriptor.writeAll` made `totp code` run half as many
// instructions again (Benchmarks/ANALYSIS.md), most of them the Swift runtime scanning
// conformance records for a cast inside swift-system. Package-level so that every module (the
// command-line tools, OTPSealing's key files) shares these loops.

/// An open file descriptor with the read and write loops every module needs: calls that a signal
/// interrupts (`EINTR`) are retried, and a failure carries the `errno` of the call that failed,
/// taken before anything else can overwrite it.
///
/// Reads go into caller-owned buffers, so key material can be read straight into wiped storage
/// (`SecureBytes`) without a Swift `Array` or `String` copy.
package struct POSIXFile: Sendable {
    /// A failed call: its `errno`, and the C library's message for it.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The `errno` value the failing call left.
        package let code: Int32

        /// The failure `code` (an `errno` value) describes.
        package init(code: Int32) {
            self.code = code
        }

        /// `strerror`'s text, such as `No such file or directory`.
        package var description: String { String(cString: strerror(code)) }

        /// Whether the call failed because the file already exists (`EEXIST`).
        package var isAlreadyExisting: Bool { code == EEXIST }
    }

    /// The descriptor; the caller that opened it closes it.
    package let descriptor: Int32

    /// Wraps an already open descriptor, such as standard input.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Standard input (descriptor 0); never closed.
    package static let standardInput = POSIXFile(descriptor: STDIN_FILENO)
    /// Standard output (descriptor 1); never closed.
    package static let standardOutput = POSIXFile(descriptor: STDOUT_FILENO)
    /// Standard error (descriptor 2); never closed.
    package static let standardError = POSIXFile(descriptor: STDERR_FILENO)

    /// Opens `path` for reading, close-on-exec.
    package static func openForReading(_ path: String) throws(Failure) -> POSIXFile {
        try open(path, flags: O_RDONLY)
    }

    /// Creates `path` for writing with permission bits `mode`; fails with `EEXIST` rather than
    /// replace a file that is already there.
    package static func createNew(_ path: String, mode: UInt32) throws(Failure) -> POSIXFile {
        try open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode)
    }

    private static func open(_ path: String, flags: Int32, mode: UInt32 = 0) throws(Failure) -> POSIXFile {
        while true {
            let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode_t(mode))
            if descriptor >= 0 { return POSIXFile(descriptor: descriptor) }
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Reads once into `buffer`: the number of bytes read, 0 at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 { return count }
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Reads until `buffer` is full or the file ends: the number of bytes read.
    package func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        var total = 0
        while total < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Writes all of `bytes`, however many calls the kernel needs.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Flushes what was written to the storage device (`fsync`).
    package func synchronize() throws(Failure) {
        while fsync(descriptor) != 0 {
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Closes the descriptor. Never retried: on Linux the descriptor is released even when
    /// `close` reports `EINTR`, and a retry could close a descriptor another thread just opened.
    package func close() throws(Failure) {
        if Glibc.close(descriptor) != 0 { throw Failure(code: errno) }
    }
}
