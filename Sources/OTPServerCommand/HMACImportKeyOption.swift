internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication

/// One `--hmac-import-key` value, `ALGORITHM=FILE`: the key, in base64 as firebase-tools'
/// `--hash-key` takes it, under which users were imported with `HMAC_MD5`, `HMAC_SHA1`,
/// `HMAC_SHA256` or `HMAC_SHA512` hashes, read once at start. Those users sign in with it.
enum HMACImportKeyOption {
    static let valueHelp = "HMAC_SHA256=FILE"

    static func read(_ argument: String) throws(ValidationError) -> HMACImportKey {
        guard let equals = argument.firstIndex(of: "="), let function = Self.function(argument[..<equals]) else {
            throw ValidationError("--hmac-import-key takes HMAC_MD5, HMAC_SHA1, HMAC_SHA256 or HMAC_SHA512, then =FILE")
        }
        let path = String(argument[argument.index(after: equals)...])
        let text: String
        do {
            text = String(decoding: try OperatorFile.contents(path), as: UTF8.self)
        } catch {
            throw ValidationError("--hmac-import-key: cannot read \(path): \(error.reason)")
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
