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
        let ciphertextRange = SealedSecret.headerByteCount..<(SealedSecret.headerByteCount + secret.byteCount)
        do throws(AESGCM.Failure) {
            try key.storage.withUnsafeBytes { keyBytes throws(AESGCM.Failure) in
                try secret.withUnsafeBytes { plain throws(AESGCM.Failure) in
                    try aad.withBytes { aad throws(AESGCM.Failure) in
                        try output.withMutableBytes { buffer throws(AESGCM.Failure) in
                            try AESGCM.seal(
                                plain, key: keyBytes, nonce: UnsafeRawBufferPointer(rebasing: buffer[nonceRange]), associatedData: aad,
                                ciphertext: UnsafeMutableRawBufferPointer(rebasing: buffer[ciphertextRange]),
                                tag: UnsafeMutableRawBufferPointer(rebasing: buffer[ciphertextRange.upperBound...]))
                        }
                    }
                }
            }
        } catch {
            throw .cryptoFailure(error.description)
        }
        return SealedSecret(validatedBytes: output)
    }

    static func open(_ sealed: SealedSecret, enrollmentID: String, key: SealingKey) throws(SealingError) -> OTPSecret {
        let aad = associatedData(header: sealed.bytes, enrollmentID: enrollmentID)
        let count = sealed.ciphertextByteCount
        let nonceRange = (1 + SealingKeyID.byteCount)..<SealedSecret.headerByteCount
        let ciphertextRange = SealedSecret.headerByteCount..<(SealedSecret.headerByteCount + count)
        let plain: SecureBytes
        do throws(AESGCM.Failure) {
            plain = try key.storage.withUnsafeBytes { keyBytes throws(AESGCM.Failure) in
                try aad.withBytes { aad throws(AESGCM.Failure) in
                    try sealed.bytes.withBytes { buffer throws(AESGCM.Failure) in
                        try AESGCM.open(
                            UnsafeRawBufferPointer(rebasing: buffer[ciphertextRange]),
                            tag: UnsafeRawBufferPointer(rebasing: buffer[ciphertextRange.upperBound...]),
                            key: keyBytes, nonce: UnsafeRawBufferPointer(rebasing: buffer[nonceRange]), associatedData: aad)
                    }
                }
            }
        } catch .authenticationFailed {
            throw .authenticationFailed
        } catch {
            throw .cryptoFailure(error.description)
        }
        do {
            return try plain.withUnsafeBytes { bytes throws(OTPError) in try OTPSecret(bytes: bytes) }
        } catch {
            throw .malformedSealedSecret("the opened secret is unusable: \(error)")
        }
    }

    /// Label, then the version byte and key id (so neither can be swapped), then the enrollment id.
    private static func associatedData(header: [UInt8], enrollmentID: String) -> [UInt8] {
        associatedDataLabel + header[0...SealingKeyID.byteCount] + Array(enrollmentID.utf8)
    }
}
