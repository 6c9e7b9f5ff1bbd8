internal import CryptoExtras
internal import Foundation
internal import Glibc
internal import JWTKit
internal import OTPCore
public import OTPSealing

/// The ID token signing keys at rest: one file, sealed under the operator's sealing key, made on
/// first start and replaced whole by each rotation.
///
/// Each key (its PEM, RSA or P-256) is encrypted with AES-256-GCM under a random 32-byte wrapping
/// key, and the wrapping key is sealed by the `SecretSealer` like any enrolled secret (the key id in its
/// associated data), so the file is useless without the sealing key and rotates with it through
/// `previous` keys. A new file is published with `link(2)`, which never replaces a file: of servers
/// starting at once on one file, one key wins and every server loads it. A rotation writes the
/// whole set beside the file and renames it over the file, under an exclusive lock, so a reader
/// sees the old set or the new one and two rotations never lose each other's key.
///
/// Format 1 holds one RS256 key; format 2 an ordered set of RS256 keys with retirement times;
/// format 3 the same set with each key's algorithm. A file is written in the oldest format that
/// holds its keys, so that every version that can use them reads it: a new RS256 key in format 1,
/// a rotated set of RS256 keys in format 2, and a set holding any ES256 key in format 3, which
/// versions before ES256 refuse as a format they do not know rather than try to read an EC key
/// as an RSA one.
public enum IDTokenKeyFile {
    static let formatOne = "otpkit-server ID token key 1"
    static let formatTwo = "otpkit-server ID token keys 2"
    static let formatThree = "otpkit-server ID token keys 3"
    /// What every format's name starts with, to tell a newer version's file from a stranger's.
    static let formatPrefix = "otpkit-server ID token key"
    static let associatedDataPrefix = "OTPKit ID token key v1\0"
    /// Far above any real file (a few kilobytes a key); a larger one is no key file.
    static let maximumSize = 1 << 20

    /// One key as the file holds it: sealed, with the time a rotation retired it.
    struct SealedKey: Codable {
        var kid: String
        /// Absent in formats 1 and 2, whose keys are all RS256.
        var algorithm: String?
        var retiredAt: Int64?
        var wrappedKey: String
        var nonce: String
        var ciphertext: String
        var tag: String
    }

    /// Format 1: one key, its fields beside the format.
    struct FormatOne: Codable {
        var format: String
        var kid: String
        var wrappedKey: String
        var nonce: String
        var ciphertext: String
        var tag: String
    }

    /// Formats 2 and 3: the signing key first, then the retired ones.
    struct FormatTwo: Codable {
        var format: String
        var keys: [SealedKey]
    }

    struct FormatName: Decodable {
        var format: String
    }

    /// What identifies one version of the file: a rotation renames a new file over it (a new
    /// inode), and anything that rewrites it in place changes its size or modification time.
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int64

        /// The version at `path` now, `nil` when it cannot be looked at.
        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.init(status)
        }

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        }
    }

    /// The keys in the file at `path`, made and written there (mode 0600) when there is no file.
    ///
    /// The key a new file gets signs with `algorithm`; an existing file is used as it is, whatever
    /// its keys' algorithm (a rotation changes that).
    ///
    /// - Throws: ``IDTokenKeyFileError`` saying what is wrong with the file and what to do.
    public static func loadOrCreate(
        path: String, sealer: SecretSealer, algorithm: IDTokenSigningAlgorithm = .rs256
    ) throws(IDTokenKeyFileError) -> IDTokenSigningKeySet {
        try loadOrCreateVersion(path: path, sealer: sealer, algorithm: algorithm).0
    }

    /// ``loadOrCreate(path:sealer:algorithm:)``, and the version of the file the keys came from.
    static func loadOrCreateVersion(
        path: String, sealer: SecretSealer, algorithm: IDTokenSigningAlgorithm = .rs256
    ) throws(IDTokenKeyFileError) -> (IDTokenSigningKeySet, Stamp) {
        if let loaded = try load(path: path, sealer: sealer) { return loaded }
        let key = try IDTokenSigningKey.generate(algorithm: algorithm)
        try publish(try encode(sealed: [try seal(key, sealer: sealer)], path: path), at: path)
        // Another server may have published first; everyone uses what is in the file.
        guard let stored = try load(path: path, sealer: sealer) else {
            throw .unreadable(path: path, reason: "it vanished after it was written")
        }
        return stored
    }

    /// The keys in the file at `path`, and the version of the file they came from; `nil` when
    /// there is no such file.
    static func load(path: String, sealer: SecretSealer) throws(IDTokenKeyFileError) -> (IDTokenSigningKeySet, Stamp)? {
        guard let (data, stamp) = try read(path: path) else { return nil }
        let sealedKeys = try decode(data, path: path)
        var keys: [IDTokenSigningKey] = []
        for sealed in sealedKeys { keys.append(try open(sealed, path: path, sealer: sealer)) }
        return (IDTokenSigningKeySet(keys: keys), stamp)
    }

    /// The file's bytes and the version they are, read through one descriptor so the two agree.
    static func read(path: String) throws(IDTokenKeyFileError) -> ([UInt8], Stamp)? {
        let file: POSIXFile
        do {
            file = try POSIXFile.openForReading(path)
        } catch {
            if error.code == ENOENT { return nil }
            throw .unreadable(path: path, reason: error.description)
        }
        defer { try? file.close() }
        var status = stat()
        guard fstat(file.descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard Int(status.st_size) <= maximumSize else { throw .malformed(path: path) }
        // One byte more than the size, to see a file that grew meanwhile.
        var data = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        let read = data.withUnsafeMutableBytes { (buffer) in
            Result { () throws(POSIXFile.Failure) in try file.readFully(into: buffer) }
        }
        let count: Int
        switch read {
        case .success(let read): count = read
        case .failure(let error): throw .unreadable(path: path, reason: error.description)
        }
        return (Array(data[..<count]), Stamp(status))
    }

    /// The sealed keys of a file in any format, the signing one first.
    static func decode(_ data: [UInt8], path: String) throws(IDTokenKeyFileError) -> [SealedKey] {
        let decoder = JSONDecoder()
        guard let name = try? decoder.decode(FormatName.self, from: Data(data)) else { throw .malformed(path: path) }
        switch name.format {
        case formatOne:
            guard let one = try? decoder.decode(FormatOne.self, from: Data(data)) else { throw .malformed(path: path) }
            return [SealedKey(kid: one.kid, wrappedKey: one.wrappedKey, nonce: one.nonce, ciphertext: one.ciphertext, tag: one.tag)]
        case formatTwo, formatThree:
            guard let set = try? decoder.decode(FormatTwo.self, from: Data(data)), !set.keys.isEmpty,
                Set(set.keys.map(\.kid)).count == set.keys.count
            else { throw .malformed(path: path) }
            return set.keys
        case let format where format.hasPrefix(formatPrefix):
            throw .newerFormat(path: path, format: format)
        default:
            throw .malformed(path: path)
        }
    }

    static func open(_ sealed: SealedKey, path: String, sealer: SecretSealer) throws(IDTokenKeyFileError) -> IDTokenSigningKey {
        let algorithm: IDTokenSigningAlgorithm
        if let name = sealed.algorithm {
            guard let known = IDTokenSigningAlgorithm(rawValue: name) else {
                throw .unknownAlgorithm(path: path, kid: sealed.kid, algorithm: name)
            }
            algorithm = known
        } else {
            algorithm = .rs256
        }
        guard let wrapped = bytes(hex: sealed.wrappedKey), let nonce = bytes(hex: sealed.nonce),
            let ciphertext = bytes(hex: sealed.ciphertext), let tag = bytes(hex: sealed.tag),
            let sealedWrappingKey = try? SealedSecret(bytes: wrapped)
        else { throw .malformed(path: path) }
        let wrappingKey: OTPSecret
        do {
            wrappingKey = try sealer.open(sealedWrappingKey, enrollmentID: recordID(sealed.kid))
        } catch {
            throw .wrongSealingKey(path: path)
        }
        let pem: String
        do {
            pem = try wrappingKey.withUnsafeBytes { (key) in
                let plaintext = try associatedData(sealed.kid).withUnsafeBytes { (associatedData) in
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
        guard let privateKey = IDTokenSigningKey.PrivateKey.read(pem: pem, algorithm: algorithm) else { throw .malformed(path: path) }
        return IDTokenSigningKey(kid: sealed.kid, privateKey: privateKey, retiredAt: sealed.retiredAt)
    }

    static func seal(_ key: IDTokenSigningKey, sealer: SecretSealer) throws(IDTokenKeyFileError) -> SealedKey {
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
            return SealedKey(
                kid: key.kid, algorithm: key.algorithm.rawValue, retiredAt: key.retiredAt, wrappedKey: Hex.encode(wrapped.bytes),
                nonce: Hex.encode(nonce),
                ciphertext: Hex.encode(sealed.ciphertext), tag: Hex.encode(sealed.tag))
        } catch {
            throw .keyGenerationFailed
        }
    }

    /// A set of sealed keys in the oldest format that holds them: format 1 for one RS256 key that
    /// signs, format 2 when every key is RS256 (without the algorithms, as format 2 has none), else
    /// format 3.
    static func encode(sealed keys: [SealedKey], path: String) throws(IDTokenKeyFileError) -> Data {
        let rs256 = IDTokenSigningAlgorithm.rs256.rawValue
        if keys.count == 1, let key = keys.first, key.algorithm == rs256, key.retiredAt == nil {
            return try encode(
                FormatOne(
                    format: formatOne, kid: key.kid, wrappedKey: key.wrappedKey, nonce: key.nonce, ciphertext: key.ciphertext, tag: key.tag),
                path: path)
        }
        if keys.allSatisfy({ $0.algorithm == rs256 }) {
            let plain = keys.map { (key) in
                var key = key
                key.algorithm = nil
                return key
            }
            return try encode(FormatTwo(format: formatTwo, keys: plain), path: path)
        }
        return try encode(FormatTwo(format: formatThree, keys: keys), path: path)
    }

    static func encode(_ contents: some Encodable, path: String) throws(IDTokenKeyFileError) -> Data {
        do {
            return try JSONEncoder().encode(contents)
        } catch {
            throw .unwritable(path: path, reason: "the keys could not be encoded")
        }
    }

    /// Writes `encoded` to a new file beside `path`, flushed to the disk: its path.
    static func writeBeside(_ path: String, _ encoded: Data) throws(IDTokenKeyFileError) -> String {
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
        return temporary
    }

    /// Writes `encoded` beside `path` and links it to `path`, which fails rather than replace a
    /// file that appeared meanwhile (then the caller loads that one).
    static func publish(_ encoded: Data, at path: String) throws(IDTokenKeyFileError) {
        let temporary = try writeBeside(path, encoded)
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
