internal import CCryptoOpenSSL
internal import OTPCore

internal import Glibc

extension SealingKey {
    /// Creates a new random key (OpenSSL's `RAND_bytes`) and writes it to `path` as 64 hexadecimal
    /// characters and a newline, readable by the owner only. Never overwrites: an existing key may
    /// be the only way to open sealed secrets.
    ///
    /// This is the operator's explicit request for a key (the `totp keygen` command); nothing in
    /// OTPKit calls it on its own.
    /// - Throws: ``SealingError/unwritableKeyFile(path:reason:)`` when the file exists or cannot be written.
    public static func generate(writingTo path: String) throws(SealingError) -> SealingKey {
        var failed = false
        let storage = SecureBytes(count: byteCount) { buffer in
            failed = !SecureRandom.fill(buffer)
            return byteCount
        }
        guard !failed else { throw .cryptoFailure("RAND_bytes could not produce a key") }
        let key = try SealingKey(storage: storage)

        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unwritableKeyFile(path: path, reason: errno == EEXIST ? "it already exists (a key is never overwritten)" : systemError())
        }
        let text = SecureBytes(count: 2 * byteCount + 1) { buffer in
            storage.withUnsafeBytes { Hex.encode($0, into: buffer) }
            buffer[2 * byteCount] = 0x0A
            return 2 * byteCount + 1
        }
        var failure: String?
        text.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = systemError()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = systemError() }
        if close(descriptor) != 0, failure == nil { failure = systemError() }
        if let failure {
            unlink(path)
            throw .unwritableKeyFile(path: path, reason: failure)
        }
        return key
    }

    static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
