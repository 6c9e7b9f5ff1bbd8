import Foundation
import OTPCore
import OTPVault

/// What 2FAS's and andOTP's encrypted backups share: a key derived from the password, then
/// AES-256-GCM with the tag appended to the ciphertext (Java's `Cipher` output).
enum ExportDecryption {
    /// The key a password gives under PBKDF2-HMAC.
    static func pbkdf2Key(
        _ password: VaultPassphrase,
        salt: [UInt8],
        iterations: Int,
        hash: PasswordKDF.PBKDF2Hash,
        format: ImportFormat
    ) throws(ImportError) -> SecureBytes {
        do {
            return try password.storage.withUnsafeBytes { password throws(PasswordKDF.Failure) in
                try salt.withBytes { salt throws(PasswordKDF.Failure) in
                    try PasswordKDF.pbkdf2(password: password, salt: salt, iterations: iterations, hash: hash)
                }
            }
        } catch {
            throw .malformed(format, reason: error.description)
        }
    }

    /// Decrypts `ciphertext ‖ tag`: the plaintext, or `nil` when the tag does not match.
    static func open(_ sealed: ArraySlice<UInt8>, key: SecureBytes, nonce: ArraySlice<UInt8>, format: ImportFormat) throws(ImportError) -> Data? {
        guard sealed.count >= AESGCM.tagByteCount else { throw .malformed(format, reason: "the encrypted data is too short") }
        guard nonce.count == AESGCM.nonceByteCount else { throw .malformed(format, reason: "the nonce is not 12 bytes") }
        let ciphertext = Array(sealed.dropLast(AESGCM.tagByteCount))
        let tag = Array(sealed.suffix(AESGCM.tagByteCount))
        let nonce = Array(nonce)
        do {
            let plaintext = try key.withUnsafeBytes { key throws(AESGCM.Failure) in
                try ciphertext.withBytes { ciphertext throws(AESGCM.Failure) in
                    try tag.withBytes { tag throws(AESGCM.Failure) in
                        try nonce.withBytes { nonce throws(AESGCM.Failure) in try AESGCM.open(ciphertext, tag: tag, key: key, nonce: nonce) }
                    }
                }
            }
            return plaintext.withUnsafeBytes { Data($0) }
        } catch .authenticationFailed {
            return nil
        } catch {
            throw .malformed(format, reason: error.description)
        }
    }
}
