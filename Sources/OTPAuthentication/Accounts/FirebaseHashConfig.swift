internal import Foundation
internal import OTPCore

/// A Firebase project's password hash parameters, as its console shows them under Users, "Password
/// hash parameters" (`hash_config { algorithm: SCRYPT, base64_signer_key, base64_salt_separator,
/// rounds, mem_cost }`): what users imported from that project with Firebase's own hashes sign in
/// with, until their first sign-in re-hashes their passwords in OTPKit's form.
///
/// Firebase's scrypt is modified: scrypt(password, salt ‖ separator, N = 2^`memoryCost`,
/// r = `rounds`, p = 1) gives a 64-byte key, whose first 32 bytes encrypt the project's signer key
/// with AES-256-CTR from a zero counter block; that ciphertext is the stored hash. The signer key
/// is the project's secret, so it is configured, never stored beside the hashes: a stored hash
/// names it by ``keyID`` only.
public struct FirebaseHashConfig: Sendable, Hashable {
    /// The project's signer key.
    public let signerKey: [UInt8]
    /// The bytes put between a user's salt and the password (may be empty).
    public let saltSeparator: [UInt8]
    /// scrypt's block size r, 1 to 8.
    public let rounds: Int
    /// log2 of scrypt's N, 1 to 14.
    public let memoryCost: Int

    /// The ranges Firebase's import takes.
    public static let roundsRange = 1...8
    /// See ``roundsRange``.
    public static let memoryCostRange = 1...14

    /// A configuration from its parts.
    /// - Throws: ``PasswordHashError/invalidFirebaseHashConfig(_:)`` for an empty signer key, or
    ///   rounds or a memory cost outside Firebase's ranges.
    public init(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int) throws(PasswordHashError) {
        guard !signerKey.isEmpty else { throw .invalidFirebaseHashConfig("no signer key: give the project's base64_signer_key") }
        guard Self.roundsRange.contains(rounds) else { throw .invalidFirebaseHashConfig("rounds \(rounds): Firebase's are 1 to 8") }
        guard Self.memoryCostRange.contains(memoryCost) else { throw .invalidFirebaseHashConfig("mem_cost \(memoryCost): Firebase's are 1 to 14") }
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }

    /// The configuration in the console's text: `hash_config {`, then `algorithm: SCRYPT,`,
    /// `base64_signer_key: …,`, `base64_salt_separator: …,`, `rounds: 8,`, `mem_cost: 14,` on lines
    /// of their own, and `}`.
    /// - Throws: ``PasswordHashError/invalidFirebaseHashConfig(_:)`` naming what is missing or wrong.
    public init(parsing text: String) throws(PasswordHashError) {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.firstIndex(of: ":") else { continue }
            let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
            var value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(",") { value.removeLast() }
            values[name] = value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        guard values["algorithm"] == "SCRYPT" else {
            throw .invalidFirebaseHashConfig(
                "no algorithm: SCRYPT line: give the hash_config the Firebase console shows under Password hash parameters")
        }
        guard let key = values["base64_signer_key"].flatMap({ Data(base64Encoded: $0) }) else {
            throw .invalidFirebaseHashConfig("no base64_signer_key in Base64: give the hash_config the Firebase console shows")
        }
        guard let separator = Data(base64Encoded: values["base64_salt_separator"] ?? "") else {
            throw .invalidFirebaseHashConfig("a base64_salt_separator that is not Base64")
        }
        guard let rounds = values["rounds"].flatMap(Int.init), let memoryCost = values["mem_cost"].flatMap(Int.init) else {
            throw .invalidFirebaseHashConfig("no rounds or mem_cost as whole numbers: give the hash_config the Firebase console shows")
        }
        try self.init(signerKey: Array(key), saltSeparator: Array(separator), rounds: rounds, memoryCost: memoryCost)
    }

    /// 16 hex digits naming the signer key in stored hashes, without holding it: a MAC of the key
    /// under a fixed label.
    public var keyID: String {
        let mac = signerKey.withUnsafeBytes { HMACSHA256.code(key: Array("otpkit firebase signer key id".utf8), message: $0) }
        return String(Hex.encode(mac).prefix(16))
    }

    /// Firebase's modified scrypt of `password` with a user's `salt`: what the project stores.
    public func hash(_ password: String, salt: [UInt8]) throws(PasswordHashError) -> [UInt8] {
        let saltAndSeparator = salt + saltSeparator
        do {
            let derived = try Array(password.utf8).withBytes { passwordBytes throws(PasswordKDF.Failure) in
                try saltAndSeparator.withBytes { saltBytes throws(PasswordKDF.Failure) in
                    try PasswordKDF.scrypt(
                        password: passwordBytes, salt: saltBytes, n: 1 << UInt64(memoryCost), r: UInt32(rounds), p: 1, keyByteCount: 64)
                }
            }
            return try derived.withUnsafeBytes { key throws(AESGCM.Failure) in
                try signerKey.withBytes { signer throws(AESGCM.Failure) in
                    try [UInt8](repeating: 0, count: 16).withBytes { iv throws(AESGCM.Failure) in
                        try AESCTR.encrypt(signer, key: UnsafeRawBufferPointer(rebasing: key[0..<32]), iv: iv)
                    }
                }
            }
        } catch let error as PasswordKDF.Failure {
            throw .cryptoFailure(error.description)
        } catch {
            throw .cryptoFailure("\(error)")
        }
    }
}
