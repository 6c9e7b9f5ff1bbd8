internal import CCryptoOpenSSL
internal import OTPCore

extension SecretSealer {
    /// Domain separation: these bytes start every associated data, so a GCM tag made for some
    /// other purpose under the same key never verifies here.
    private static let associatedDataLabel = Array("OTPKit sealed secret\u{0}".utf8)

    static func seal(_ secret: OTPSecret, enrollmentID: String, key: SealingKey) throws(SealingError) -> SealedSecret {
        var output = [UInt8](repeating: 0, count: SealedSecret.headerByteCount + secret.byteCount + SealedSecret.tagByteCount)
        output[0] = SealedSecret.currentFormat
        output.replaceSubrange(1...SealingKeyID.byteCount, with: key.id.bytes)
        let nonceRange = (1 + SealingKeyID.byteCount)..<SealedSecret.headerByteCount
        let nonceOK = output.withUnsafeMutableBytes { buffer in
            SecureRandom.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[nonceRange]))
        }
        guard nonceOK else { throw .cryptoFailure("RAND_bytes could not produce a nonce") }
        let aad = associatedData(header: output, enrollmentID: enrollmentID)

        guard let context = EVP_CIPHER_CTX_new() else { throw .cryptoFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let succeeded = key.storage.withUnsafeBytes { keyBytes in
            output.withUnsafeMutableBufferPointer { buffer -> Bool in
                let base = buffer.baseAddress!
                var length: Int32 = 0
                guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, keyBytes.baseAddress, base + nonceRange.lowerBound) == 1,
                    EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1
                else { return false }
                let ciphertext = base + SealedSecret.headerByteCount
                let encrypted = secret.withUnsafeBytes { plain in
                    EVP_EncryptUpdate(context, ciphertext, &length, plain.baseAddress, Int32(plain.count)) == 1
                        && Int(length) == plain.count
                }
                guard encrypted, EVP_EncryptFinal_ex(context, ciphertext + Int(length), &length) == 1 else { return false }
                let tag = ciphertext + secret.byteCount
                return CCryptoOpenSSL_EVP_CIPHER_CTX_get_gcm_tag(context, tag, Int32(SealedSecret.tagByteCount)) == 1
            }
        }
        guard succeeded else { throw .cryptoFailure("AES-256-GCM encryption failed") }
        return SealedSecret(validatedBytes: output)
    }

    static func open(_ sealed: SealedSecret, enrollmentID: String, key: SealingKey) throws(SealingError) -> OTPSecret {
        let aad = associatedData(header: sealed.bytes, enrollmentID: enrollmentID)
        guard let context = EVP_CIPHER_CTX_new() else { throw .cryptoFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let count = sealed.ciphertextByteCount
        // Decrypt into a scratch buffer that is wiped whatever happens; OTPSecret copies it into its own wiped storage.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 16) { plain throws(SealingError) -> OTPSecret in
            plain.initialize(repeating: 0)
            defer { OPENSSL_cleanse(plain.baseAddress, plain.count) }
            enum Outcome { case opened, failedToDecrypt, failedToAuthenticate }
            let outcome = key.storage.withUnsafeBytes { keyBytes in
                sealed.bytes.withUnsafeBufferPointer { buffer -> Outcome in
                    let base = buffer.baseAddress!
                    var length: Int32 = 0
                    let ciphertext = base + SealedSecret.headerByteCount
                    guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, keyBytes.baseAddress, base + 1 + SealingKeyID.byteCount) == 1,
                        EVP_DecryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1,
                        EVP_DecryptUpdate(context, plain.baseAddress, &length, ciphertext, Int32(count)) == 1,
                        CCryptoOpenSSL_EVP_CIPHER_CTX_set_gcm_tag(context, ciphertext + count, Int32(SealedSecret.tagByteCount)) == 1
                    else { return .failedToDecrypt }
                    var finalLength: Int32 = 0
                    // EVP_DecryptFinal_ex is where GCM compares the tag (in constant time).
                    guard EVP_DecryptFinal_ex(context, plain.baseAddress! + Int(length), &finalLength) == 1 else {
                        return .failedToAuthenticate
                    }
                    return .opened
                }
            }
            switch outcome {
            case .failedToDecrypt: throw .cryptoFailure("AES-256-GCM decryption failed")
            case .failedToAuthenticate: throw .authenticationFailed
            case .opened: break
            }
            do {
                return try OTPSecret(bytes: UnsafeBufferPointer(rebasing: plain[..<count]))
            } catch {
                throw .malformedSealedSecret("the opened secret is unusable: \(error)")
            }
        }
    }

    /// Label, then the version byte and key id (so neither can be swapped), then the enrollment id.
    private static func associatedData(header: [UInt8], enrollmentID: String) -> [UInt8] {
        associatedDataLabel + header[0...SealingKeyID.byteCount] + Array(enrollmentID.utf8)
    }
}
