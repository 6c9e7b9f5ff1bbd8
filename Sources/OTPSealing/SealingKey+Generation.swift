internal import CCryptoOpenSSL
internal import OTPCore

internal import Glibc

extension SealingKey {
    /// A new random key (OpenSSL's `RAND_bytes`) that lives in memory only: for what lasts no
    /// longer than the process, such as an in-memory store's code digests. A key that protects
    /// anything stored must come from the operator (``generate(writingTo:)``, a key file).
    public static func random() throws(SealingError) -> SealingKey {
        var failed = false
        let storage = SecureBytes(count: byteCount) { buffer in
            failed = !SecureRandom.fill(buffer)
            return byteCount
        }
        guard !failed else { throw .cryptoFailure("RAND_bytes could not produce a key") }
        return try SealingKey(storage: storage)
    }

    /// Creates a new random key (OpenSSL's `RAND_bytes`) and writes it to `path` as 64 hexadecimal
    /// characters and a newline, readable by the owner only. Never overwrites: an existing key may
    /// be the only way to open sealed secrets.
    ///
    /// This is the operator's explicit request for a key (the `totp keygen` command); nothing in
    /// OTPKit calls it on its own.
    /// - Throws: ``SealingError/unwritableKeyFile(path:reason:)`` when the file exists or cannot be written.
    public static func generate(writingTo path: String) throws(SealingError) -> SealingKey {
        let key = try random()
        let storage = key.storage

        let file: POSIXFile
        do {
            file = try POSIXFile.createNew(path, mode: 0o600)
        } catch {
            throw .unwritableKeyFile(
                path: path, reason: error.isAlreadyExisting ? "it already exists (a key is never overwritten)" : error.description)
        }
        let text = SecureBytes(count: 2 * byteCount + 1) { buffer in
            storage.withUnsafeBytes { Hex.encode($0, into: buffer) }
            buffer[2 * byteCount] = 0x0A
            return 2 * byteCount + 1
        }
        do throws(POSIXFile.Failure) {
            do throws(POSIXFile.Failure) {
                try text.withUnsafeBytes { (bytes) throws(POSIXFile.Failure) in try file.writeAll(bytes) }
                try file.synchronize()
            } catch {
                try? file.close()
                throw error
            }
            try file.close()
        } catch {
            unlink(path)
            throw .unwritableKeyFile(path: path, reason: error.description)
        }
        return key
    }
}
