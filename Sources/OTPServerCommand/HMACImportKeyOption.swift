internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication

/// One `--hmac-import-key` value, `ALGORITHM=FILE`: the key, in base64 as firebase-tools'
/// `--hash-key` takes it, under which users were imported with `HMAC_MD5`, `HMAC_SHA1`,
/// `HMAC_SHA256` or `HMAC_SHA512` hashes, read once at start. Those users sign in with it.
enum HMACImportKeyOption {
    static let valueHelp = "HMAC_SHA256=FILE"

    static func read(_ argument: String) throws(ValidationError) -> HMACImportKey {
        guard let (function, path, text) = try OperatorFile.named(argument, option: "--hmac-import-key", name: Self.function) else {
            throw ValidationError("--hmac-import-key takes HMAC_MD5, HMAC_SHA1, HMAC_SHA256 or HMAC_SHA512, then =FILE")
        }
        guard let key = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), !key.isEmpty else {
            throw ValidationError("--hmac-import-key \(path): write the key into it in base64, as firebase-tools' --hash-key takes it")
        }
        do {
            return try HMACImportKey(function: function, key: Array(key))
        } catch {
            throw ValidationError("--hmac-import-key \(path): \(error)")
        }
    }

    private static func function(_ name: Substring) -> PasswordHasher.DigestHash? {
        guard name.hasPrefix("HMAC_") else { return nil }
        return PasswordHasher.DigestHash(rawValue: name.dropFirst(5).lowercased())
    }
}
