internal import Glibc

// The key is read with POSIX calls into wiped buffers rather than through Foundation, whose Data
// and String copies of the key could not be wiped. One reader for OTPSealing's sealing key and
// OTPVault's key-file slots, so that both accept the same files.

/// The reader of 32-byte key files: 32 raw bytes, or 64 hexadecimal characters with surrounding
/// whitespace ignored, as `openssl rand 32 > FILE` or `openssl rand -hex 32 > FILE` writes them.
package enum KeyFile {
    /// The key length both readers want (AES-256).
    package static let byteCount = 32

    /// The longest key file read; a key file is 32 raw bytes or 64 hexadecimal characters and a newline.
    private static let maximumFileByteCount = 4096

    /// What was wrong with a key file; never any of its bytes.
    package enum Failure: Error, Equatable, Sendable {
        /// Opening, inspecting or reading the file failed (`ENOENT` when it is missing).
        case unreadable(POSIXFile.Failure)
        /// The file is larger than any key file can be.
        case tooLarge
        /// Group or others may access the file (`mode` holds its permission bits).
        case notPrivate(mode: UInt32)
        /// Neither 32 raw bytes nor hexadecimal digits.
        case invalidEncoding
        /// Hexadecimal digits that decode to this many bytes instead of 32.
        case wrongLength(Int)
    }

    /// Reads the key in the file at `path`.
    ///
    /// With `requirePrivate`, a file that group or others may read or write is refused before its
    /// contents are read, checked on the open descriptor so that a file swapped in meanwhile is
    /// checked itself.
    package static func read(path: String, requirePrivate: Bool) throws(Failure) -> SecureBytes {
        let file: POSIXFile
        do {
            file = try POSIXFile.openForReading(path)
        } catch {
            throw .unreadable(error)
        }
        defer { try? file.close() }
        if requirePrivate {
            var status = stat()
            guard fstat(file.descriptor, &status) == 0 else { throw .unreadable(POSIXFile.Failure(code: errno)) }
            let mode = UInt32(status.st_mode) & 0o7777
            guard mode & 0o077 == 0 else { throw .notPrivate(mode: mode) }
        }
        var readFailure: POSIXFile.Failure?
        let contents = SecureBytes(count: maximumFileByteCount) { buffer in
            do throws(POSIXFile.Failure) {
                return try file.readFully(into: buffer)
            } catch {
                readFailure = error
                return 0
            }
        }
        if let readFailure { throw .unreadable(readFailure) }
        if contents.count == maximumFileByteCount { throw .tooLarge }
        return try decode(contents, acceptRaw: true)
    }

    /// Decodes a key from 64 hexadecimal characters (surrounding whitespace ignored) or, with
    /// `acceptRaw`, from exactly 32 other bytes. Hexadecimal wins when both readings are possible.
    package static func decode(_ contents: SecureBytes, acceptRaw: Bool) throws(Failure) -> SecureBytes {
        let decoded: SecureBytes? = contents.withUnsafeBytes { bytes in
            let text = trimmingWhitespace(bytes)
            guard !text.isEmpty else { return nil }
            var valid = false
            let decoded = SecureBytes(count: text.count / 2) { output in
                valid = Hex.decode(text, into: output)
                return output.count
            }
            return valid ? decoded : nil
        }
        if let decoded {
            guard decoded.count == byteCount else { throw .wrongLength(decoded.count) }
            return decoded
        }
        guard acceptRaw, contents.count == byteCount else { throw .invalidEncoding }
        return contents
    }

    private static func trimmingWhitespace(_ bytes: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
