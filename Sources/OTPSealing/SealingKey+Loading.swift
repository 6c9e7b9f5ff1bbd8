internal import OTPCore

internal import Glibc

extension SealingKey {
    /// Reads a key file holding either 32 raw bytes or 64 hexadecimal characters (surrounding
    /// whitespace ignored), as `openssl rand -hex 32 > FILE` or `openssl rand 32 > FILE` writes it.
    public init(contentsOfFile path: String) throws(SealingError) {
        let storage: SecureBytes
        do {
            // The file's mode is not checked: keys written by hand before `keygen` existed are
            // often mode 0644, and refusing them now would stop running servers.
            storage = try KeyFile.read(path: path, requirePrivate: false)
        } catch {
            throw Self.error(error, source: path)
        }
        try self.init(storage: storage)
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
        let storage: SecureBytes
        do {
            storage = try KeyFile.decode(contents, acceptRaw: false)
        } catch {
            throw Self.error(error, source: "$\(name)")
        }
        try self.init(storage: storage)
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

    private static func error(_ failure: KeyFile.Failure, source: String) -> SealingError {
        switch failure {
        case .unreadable(let failure): .unreadableKeyFile(path: source, reason: failure.description)
        case .tooLarge: .unreadableKeyFile(path: source, reason: "larger than a key file can be")
        case .notPrivate(let mode): .unreadableKeyFile(path: source, reason: "mode \(String(mode, radix: 8)) lets others read it")
        case .invalidEncoding: .invalidKeyEncoding(source: source)
        case .wrongLength(let count): .invalidKeyLength(count)
        }
    }
}
