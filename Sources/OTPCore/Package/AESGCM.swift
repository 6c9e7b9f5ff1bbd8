internal import CCryptoOpenSSL

/// AES-256-GCM through OpenSSL's EVP interface, the one implementation of it in the package: a
/// 32-byte key, a 12-byte nonce, optional associated data and a 16-byte tag kept apart from the
/// ciphertext, because Aegis stores the tag in a field of its own and OTPSealing after it.
package enum AESGCM {
    /// The key length of AES-256.
    package static let keyByteCount = 32
    /// The nonce length GCM is specified for (no GHASH of the nonce).
    package static let nonceByteCount = 12
    /// The full 128-bit tag; shorter tags are never made or accepted.
    package static let tagByteCount = 16

    /// Why a seal or an open failed.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The key, nonce or tag does not have its fixed length.
        case invalidLength(what: String, byteCount: Int, expected: Int)
        /// The tag does not match: the ciphertext, nonce, tag or associated data changed, or the key is another one.
        case authenticationFailed
        /// OpenSSL reported a failure.
        case cryptoFailure(String)

        package var description: String {
            switch self {
            case .invalidLength(let what, let count, let expected): "AES-256-GCM \(what) is \(count) bytes instead of \(expected)"
            case .authenticationFailed: "AES-256-GCM authentication failed"
            case .cryptoFailure(let what): what
            }
        }
    }

    /// A ciphertext and its detached tag.
    package struct Sealed: Equatable, Sendable {
        /// As long as the plaintext.
        package var ciphertext: [UInt8]
        /// ``AESGCM/tagByteCount`` bytes.
        package var tag: [UInt8]

        package init(ciphertext: [UInt8], tag: [UInt8]) {
            self.ciphertext = ciphertext
            self.tag = tag
        }
    }

    /// Encrypts `plaintext`, returning the ciphertext and the tag apart.
    package static func seal(
        _ plaintext: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer? = nil
    ) throws(Failure) -> Sealed {
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        try ciphertext.withMutableBytes { (ciphertext) throws(Failure) in
            try tag.withMutableBytes { (tag) throws(Failure) in
                try seal(plaintext, key: key, nonce: nonce, associatedData: associatedData, ciphertext: ciphertext, tag: tag)
            }
        }
        return Sealed(ciphertext: ciphertext, tag: tag)
    }

    /// Encrypts `plaintext` into `ciphertext` (as long) and writes the tag to `tag`
    /// (``tagByteCount`` bytes), for callers that lay out their own buffer.
    package static func seal(
        _ plaintext: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer?,
        ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer
    ) throws(Failure) {
        try checkLengths(key: key, nonce: nonce, tagByteCount: tag.count)
        guard ciphertext.count == plaintext.count, plaintext.count <= Int(Int32.max) else {
            throw .cryptoFailure("AES-256-GCM output buffer does not match the plaintext")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw .cryptoFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, bytes(key), bytes(nonce)) == 1 else {
            throw .cryptoFailure("AES-256-GCM encryption failed")
        }
        if let associatedData, !associatedData.isEmpty {
            guard EVP_EncryptUpdate(context, nil, &length, bytes(associatedData), Int32(associatedData.count)) == 1 else {
                throw .cryptoFailure("AES-256-GCM encryption failed")
            }
        }
        var written = 0
        if !plaintext.isEmpty {
            guard EVP_EncryptUpdate(context, mutableBytes(ciphertext), &length, bytes(plaintext), Int32(plaintext.count)) == 1 else {
                throw .cryptoFailure("AES-256-GCM encryption failed")
            }
            written = Int(length)
        }
        // GCM writes nothing at the end; a scratch byte spares a pointer past an empty buffer.
        var final: UInt8 = 0
        let finished = withUnsafeMutablePointer(to: &final) { scratch in
            EVP_EncryptFinal_ex(context, written < ciphertext.count ? mutableBytes(ciphertext)! + written : scratch, &length) == 1
        }
        guard finished, CCryptoOpenSSL_EVP_CIPHER_CTX_get_gcm_tag(context, mutableBytes(tag), Int32(tagByteCount)) == 1 else {
            throw .cryptoFailure("AES-256-GCM encryption failed")
        }
    }

    /// Decrypts and authenticates; the plaintext is returned in wiped storage.
    /// - Throws: ``Failure/authenticationFailed`` when the tag does not match.
    package static func open(
        _ ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer? = nil
    ) throws(Failure) -> SecureBytes {
        try SecureBytes(count: ciphertext.count) { plaintext throws(Failure) in
            try open(ciphertext, tag: tag, key: key, nonce: nonce, associatedData: associatedData, into: plaintext)
            return ciphertext.count
        }
    }

    /// Decrypts `ciphertext` into `plaintext` (as long) and checks the tag. On any failure the
    /// plaintext buffer is wiped before the error is thrown, so unauthenticated bytes never leak out.
    package static func open(
        _ ciphertext: UnsafeRawBufferPointer,
        tag: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer?,
        into plaintext: UnsafeMutableRawBufferPointer
    ) throws(Failure) {
        try checkLengths(key: key, nonce: nonce, tagByteCount: tag.count)
        guard plaintext.count == ciphertext.count, ciphertext.count <= Int(Int32.max) else {
            throw .cryptoFailure("AES-256-GCM output buffer does not match the ciphertext")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw .cryptoFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var succeeded = false
        defer { if !succeeded, let base = plaintext.baseAddress { OPENSSL_cleanse(base, plaintext.count) } }
        guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, bytes(key), bytes(nonce)) == 1 else {
            throw .cryptoFailure("AES-256-GCM decryption failed")
        }
        if let associatedData, !associatedData.isEmpty {
            guard EVP_DecryptUpdate(context, nil, &length, bytes(associatedData), Int32(associatedData.count)) == 1 else {
                throw .cryptoFailure("AES-256-GCM decryption failed")
            }
        }
        var written = 0
        if !ciphertext.isEmpty {
            guard EVP_DecryptUpdate(context, mutableBytes(plaintext), &length, bytes(ciphertext), Int32(ciphertext.count)) == 1 else {
                throw .cryptoFailure("AES-256-GCM decryption failed")
            }
            written = Int(length)
        }
        guard CCryptoOpenSSL_EVP_CIPHER_CTX_set_gcm_tag(context, bytes(tag), Int32(tagByteCount)) == 1 else {
            throw .cryptoFailure("AES-256-GCM decryption failed")
        }
        var final: UInt8 = 0
        // EVP_DecryptFinal_ex is where GCM compares the tag (in constant time).
        let authentic = withUnsafeMutablePointer(to: &final) { scratch in
            EVP_DecryptFinal_ex(context, written < plaintext.count ? mutableBytes(plaintext)! + written : scratch, &length) == 1
        }
        guard authentic else { throw .authenticationFailed }
        succeeded = true
    }

    private static func checkLengths(key: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, tagByteCount count: Int) throws(Failure) {
        guard key.count == keyByteCount else { throw .invalidLength(what: "key", byteCount: key.count, expected: keyByteCount) }
        guard nonce.count == nonceByteCount else {
            throw .invalidLength(what: "nonce", byteCount: nonce.count, expected: nonceByteCount)
        }
        guard count == tagByteCount else { throw .invalidLength(what: "tag", byteCount: count, expected: tagByteCount) }
    }

    static func bytes(_ buffer: UnsafeRawBufferPointer) -> UnsafePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }

    static func mutableBytes(_ buffer: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8>? {
        buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
