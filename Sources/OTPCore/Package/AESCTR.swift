internal import CCryptoOpenSSL

/// AES-256 in counter mode through OpenSSL's EVP interface: the last step of Firebase's modified
/// scrypt, which encrypts the project's signer key under a password's derived key.
package enum AESCTR {
    /// Encrypts `plaintext` under the 32-byte `key`, the counter block starting at `iv` (16
    /// bytes). CTR's encryption is its own inverse.
    package static func encrypt(
        _ plaintext: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer
    ) throws(AESGCM.Failure) -> [UInt8] {
        guard key.count == 32 else { throw .invalidLength(what: "AES-256-CTR key", byteCount: key.count, expected: 32) }
        guard iv.count == 16 else { throw .invalidLength(what: "AES-256-CTR counter block", byteCount: iv.count, expected: 16) }
        guard plaintext.count <= Int(Int32.max) else { throw .cryptoFailure("AES-256-CTR input too long") }
        guard let context = EVP_CIPHER_CTX_new() else { throw .cryptoFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        guard EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, AESGCM.bytes(key), AESGCM.bytes(iv)) == 1 else {
            throw .cryptoFailure("AES-256-CTR encryption failed")
        }
        // One block more than the input: OpenSSL may write up to a block in Final for other modes.
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var length: Int32 = 0
        var total = 0
        let updated = output.withUnsafeMutableBytes { out in
            plaintext.isEmpty || EVP_EncryptUpdate(context, AESGCM.mutableBytes(out), &length, AESGCM.bytes(plaintext), Int32(plaintext.count)) == 1
        }
        guard updated else { throw .cryptoFailure("AES-256-CTR encryption failed") }
        total = plaintext.isEmpty ? 0 : Int(length)
        let finished = output.withUnsafeMutableBytes { out in EVP_EncryptFinal_ex(context, AESGCM.mutableBytes(out)! + total, &length) == 1 }
        guard finished else { throw .cryptoFailure("AES-256-CTR encryption failed") }
        total += Int(length)
        return Array(output.prefix(total))
    }
}
