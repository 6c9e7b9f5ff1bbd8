internal import CCryptoOpenSSL
internal import OTPCore

internal import Glibc

// The key is read with POSIX calls into wiped buffers rather than through Foundation, whose Data
// and String copies of the key could not be wiped.

extension SealingKey {
    /// The longest key file read; a key file is 32 raw bytes or 64 hexadecimal characters and a newline.
    private static let maximumFileByteCount = 4096

    /// Reads a key file holding either 32 raw bytes or 64 hexadecimal characters (surrounding
    /// whitespace ignored), as `openssl rand -hex 32 > FILE` or `openssl rand 32 > FILE` writes it.
    public init(contentsOfFile path: String) throws(SealingError) {
        let file: POSIXFile
        do {
            file = try POSIXFile.openForReading(path)
        } catch {
            throw .unreadableKeyFile(path: path, reason: error.description)
        }
        defer { try? file.close() }
        var readFailure: POSIXFile.Failure?
        let contents = SecureBytes(count: Self.maximumFileByteCount) { buffer in
            do throws(POSIXFile.Failure) {
                return try file.readFully(into: buffer)
            } catch {
                readFailure = error
                return 0
            }
        }
        if let readFailure { throw .unreadableKeyFile(path: path, reason: readFailure.description) }
        if contents.count == Self.maximumFileByteCount {
            throw .unreadableKeyFile(path: path, reason: "larger than a key file can be")
        }
        try self.init(encoded: contents, source: path, acceptRaw: true)
    }

    /// Reads a key from an environment variable holding 64 hexadecimal characters.
    /// - Throws: ``SealingError/missingKey(environmentVariable:)`` when the variable is unset or empty.
    public init(environmentVariable name: String = SealingKey.defaultEnvironmentVariable) throws(SealingError) {
        guard let value = getenv(name), value.pointee != 0 else { throw .missingKey(environmentVariable: name) }
        let length = strlen(value)
        let contents = SecureBytes(count: length) { buffer in
            buffer.copyMemory(from: UnsafeRawBufferPointer(start: value, count: length))
            return length
        }
        try self.init(encoded: contents, source: "$\(name)", acceptRaw: false)
    }

    /// Loads the key from `file` when given, else from `environmentVariable`; the order the
    /// command-line tool uses.
    public static func load(
        file: String?,
        environmentVariable: String = SealingKey.defaultEnvironmentVariable
    ) throws(SealingError) -> SealingKey {
        if let file { return try SealingKey(contentsOfFile: file) }
        return try SealingKey(environmentVariable: environmentVariable)
    }

    private init(encoded contents: SecureBytes, source: String, acceptRaw: Bool) throws(SealingError) {
        let decoded: SecureBytes? = contents.withUnsafeBytes { bytes in
            let text = Self.trimmingWhitespace(bytes)
            guard !text.isEmpty else { return nil }
            var valid = false
            let decoded = SecureBytes(count: text.count / 2) { output in
                valid = Hex.decode(text, into: output)
                return output.count
            }
            return valid ? decoded : nil
        }
        if let decoded {
            try self.init(storage: decoded)
        } else if acceptRaw, contents.count == Self.byteCount {
            try self.init(storage: contents)
        } else {
            throw .invalidKeyEncoding(source: source)
        }
    }

    private static func trimmingWhitespace(_ bytes: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }
}
