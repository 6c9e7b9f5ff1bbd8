internal import CryptoExtras
internal import Foundation
internal import Glibc
internal import JWTKit
internal import OTPCore
public import OTPSealing

/// The ID token signing key at rest: one file, sealed under the operator's sealing key, made on
/// first start and never replaced.
///
/// The RSA key (its PEM) is encrypted with AES-256-GCM under a random 32-byte wrapping key, and the
/// wrapping key is sealed by the `SecretSealer` like any enrolled secret (the key id in its
/// associated data), so the file is useless without the sealing key and rotates with it through
/// `previous` keys. The file is published with `link(2)`, which never replaces a file: of servers
/// starting at once on one file, one key wins and every server loads it.
public enum IDTokenKeyFile {
    static let format = "otpkit-server ID token key 1"
    static let associatedDataPrefix = "OTPKit ID token key v1\0"

    struct Contents: Codable {
        var format: String
        var kid: String
        var wrappedKey: String
        var nonce: String
        var ciphertext: String
        var tag: String
    }

    /// The key in the file at `path`, made and written there (mode 0600) when there is no file.
    ///
    /// - Throws: ``IDTokenKeyFileError`` saying what is wrong with the file and what to do.
    public static func loadOrCreate(path: String, sealer: SecretSealer) throws(IDTokenKeyFileError) -> IDTokenSigningKey {
        if let key = try load(path: path, sealer: sealer) { return key }
        let key = try IDTokenSigningKey.generate()
        let contents = try seal(key, sealer: sealer)
        try publish(contents, at: path)
        // Another server may have published first; everyone uses what is in the file.
        guard let stored = try load(path: path, sealer: sealer) else { throw .unreadable(path: path, reason: "it vanished after it was written") }
        return stored
    }

    /// The key in the file at `path`, or `nil` when there is no such file.
    static func load(path: String, sealer: SecretSealer) throws(IDTokenKeyFileError) -> IDTokenSigningKey? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.format == format,
            let wrapped = bytes(hex: contents.wrappedKey), let nonce = bytes(hex: contents.nonce),
            let ciphertext = bytes(hex: contents.ciphertext), let tag = bytes(hex: contents.tag),
            let sealedWrappingKey = try? SealedSecret(bytes: wrapped)
        else { throw .malformed(path: path) }
        let wrappingKey: OTPSecret
        do {
            wrappingKey = try sealer.open(sealedWrappingKey, enrollmentID: recordID(contents.kid))
        } catch {
            throw .wrongSealingKey(path: path)
        }
        let pem: String
        do {
            pem = try wrappingKey.withUnsafeBytes { (key) in
                let plaintext = try associatedData(contents.kid).withUnsafeBytes { (associatedData) in
                    try ciphertext.withUnsafeBytes { (ciphertext) in
                        try tag.withUnsafeBytes { (tag) in
                            try nonce.withUnsafeBytes { (nonce) in
                                try AESGCM.open(ciphertext, tag: tag, key: key, nonce: nonce, associatedData: associatedData)
                            }
                        }
                    }
                }
                return plaintext.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            }
        } catch {
            throw .malformed(path: path)
        }
        guard let privateKey = try? JWTKit.Insecure.RSA.PrivateKey(pem: pem) else { throw .malformed(path: path) }
        return IDTokenSigningKey(kid: contents.kid, privateKey: privateKey)
    }

    static func seal(_ key: IDTokenSigningKey, sealer: SecretSealer) throws(IDTokenKeyFileError) -> Contents {
        do {
            let wrappingKey = try OTPSecret.random(byteCount: AESGCM.keyByteCount)
            let wrapped = try sealer.seal(wrappingKey, enrollmentID: recordID(key.kid))
            var nonce = [UInt8](repeating: 0, count: AESGCM.nonceByteCount)
            guard nonce.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else { throw IDTokenKeyFileError.keyGenerationFailed }
            let pem = Array(key.privateKey.pemRepresentation.utf8)
            let sealed = try wrappingKey.withUnsafeBytes { (wrapping) in
                try associatedData(key.kid).withUnsafeBytes { (associatedData) in
                    try pem.withUnsafeBytes { (plaintext) in
                        try nonce.withUnsafeBytes { (nonce) in
                            try AESGCM.seal(plaintext, key: wrapping, nonce: nonce, associatedData: associatedData)
                        }
                    }
                }
            }
            return Contents(
                format: format, kid: key.kid, wrappedKey: Hex.encode(wrapped.bytes), nonce: Hex.encode(nonce),
                ciphertext: Hex.encode(sealed.ciphertext), tag: Hex.encode(sealed.tag))
        } catch {
            throw .keyGenerationFailed
        }
    }

    /// Writes `contents` beside `path` and links it to `path`, which fails rather than replace a
    /// file that appeared meanwhile (then the caller loads that one).
    static func publish(_ contents: Contents, at path: String) throws(IDTokenKeyFileError) {
        let encoded: Data
        do {
            encoded = try JSONEncoder().encode(contents)
        } catch {
            throw .unwritable(path: path, reason: "the key could not be encoded")
        }
        let temporary = path + ".new-" + ((try? RandomToken.hex(byteCount: 6)) ?? "0")
        do {
            let file = try POSIXFile.createNew(temporary, mode: 0o600)
            do {
                try encoded.withUnsafeBytes { bytes in try file.writeAll(bytes) }
                try file.synchronize()
                try file.close()
            } catch {
                try? file.close()
                throw error
            }
        } catch {
            unlink(temporary)
            throw .unwritable(path: path, reason: "\(error)")
        }
        defer { unlink(temporary) }
        if link(temporary, path) != 0, errno != EEXIST {
            throw .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
    }

    static func recordID(_ kid: String) -> String { "otpkit-server:id-token-key:" + kid }

    static func associatedData(_ kid: String) -> [UInt8] { Array((associatedDataPrefix + kid).utf8) }

    static func bytes(hex: String) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var output = [UInt8](repeating: 0, count: utf8.count / 2)
        let decoded = output.withUnsafeMutableBytes { Hex.decode(utf8, into: $0) }
        return decoded ? output : nil
    }
}
