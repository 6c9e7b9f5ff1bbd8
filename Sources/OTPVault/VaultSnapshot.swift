package import OTPCore
internal import OTPURI

/// What an unlocked session keeps in the kernel keyring: the master key, and the entries as they
/// were in one version of the vault file, named by that file's stamp.
///
/// It lets `totp NAME` answer from the keyring alone while the vault file is unchanged: no AES,
/// no JSON. OpenSSL 3.0's first cipher fetch costs several million instructions and Foundation's
/// JSON decoder some three million on first use, each more than the whole of a `totp code` start,
/// so the snapshot is a plain binary layout read without either. Its format is private to one
/// version of OTPKit and lives only as long as the session: a snapshot that does not read is
/// ignored, and the vault is opened the long way.
///
/// The payload ends with an HMAC-SHA256 of the rest under a key derived from the master key, and
/// is trusted only when it matches: a payload truncated, corrupted, spliced from two unlocks or
/// written by another program under the same key description is ignored rather than read as
/// entries. It does not stop a process that can read the key (it could compute the tag too): the
/// kernel's possessor-only permission keeps those to this login session's processes.
package struct VaultSnapshot {
    /// Identifies the layout; bumped whenever it changes.
    static let format: UInt8 = 2
    /// The length of the authentication tag at the end of the payload.
    static let tagByteCount = 32

    /// The vault's 32-byte master key.
    package var masterKey: SecureBytes
    /// The vault file the entries were read from.
    package var stamp: VaultFileStamp
    /// The entries of that file, or `nil` when they did not fit beside the key.
    package var entries: [VaultEntry]?

    package init(masterKey: SecureBytes, stamp: VaultFileStamp, entries: [VaultEntry]?) {
        self.masterKey = masterKey
        self.stamp = stamp
        self.entries = entries
    }

    /// The payload, in wiped storage.
    func encoded(maximumByteCount: Int) -> SecureBytes {
        var writer = Writer()
        writer.byte(Self.format)
        masterKey.withUnsafeBytes { writer.bytes($0) }
        for value in [stamp.device, stamp.inode, stamp.size, stamp.modificationSeconds, stamp.modificationNanoseconds] {
            writer.integer(value)
        }
        let keyAndStamp = writer.buffer.count
        if let entries {
            writer.integer(UInt64(entries.count))
            for entry in entries {
                let account = entry.account
                writer.string(entry.id)
                writer.byte(account.kind == .totp ? 0 : 1)
                writer.string(account.algorithm.rawValue)
                writer.integer(UInt64(account.digits))
                writer.integer(UInt64(account.period))
                writer.integer(account.counter ?? 0)
                writer.string(account.issuer ?? "")
                writer.string(account.accountName)
                account.secret.withUnsafeBytes { secret in
                    writer.integer(UInt64(secret.count))
                    writer.bytes(secret)
                }
            }
        }
        if writer.buffer.count + Self.tagByteCount > maximumByteCount {
            // Too many entries for one key: keep the master key alone, and the entries come from the file.
            writer.buffer.removeSubrange(keyAndStamp...)
        }
        let tag = writer.buffer.withUnsafeBytes { Self.tag(of: $0, masterKey: masterKey) }
        writer.buffer.append(contentsOf: tag)
        defer { writer.wipe() }
        return writer.buffer.withUnsafeBytes { bytes in
            SecureBytes(count: bytes.count) { buffer in
                buffer.copyMemory(from: bytes)
                return bytes.count
            }
        }
    }

    /// The tag of `content` (everything before it): HMAC-SHA256 under a key derived from the
    /// master key for this use alone, so that the master key itself only ever keys AES-GCM.
    static func tag(of content: UnsafeRawBufferPointer, masterKey: SecureBytes) -> [UInt8] {
        var key = masterKey.withUnsafeBytes { master in
            Array("otpkit vault keyring snapshot".utf8).withUnsafeBytes { HMACSHA256.code(key: master, message: $0) }
        }
        defer { for index in key.indices { key[index] = 0 } }
        return HMACSHA256.code(key: key, message: content)
    }

    /// Reads a payload; `nil` when it is not one this version wrote or its tag does not match.
    init?(decoding payload: SecureBytes) {
        let decoded: VaultSnapshot? = payload.withUnsafeBytes { whole in
            guard whole.count > 1 + 32 + Self.tagByteCount, whole[0] == Self.format else { return nil }
            let bytes = UnsafeRawBufferPointer(rebasing: whole[..<(whole.count - Self.tagByteCount)])
            var reader = Reader(bytes: bytes)
            guard reader.byte() == Self.format, let key = reader.bytes(32) else { return nil }
            let masterKey = SecureBytes(count: 32) { buffer in
                buffer.copyMemory(from: key)
                return 32
            }
            let tag = Array(UnsafeRawBufferPointer(rebasing: whole[(whole.count - Self.tagByteCount)...]))
            guard ConstantTime.equal(Self.tag(of: bytes, masterKey: masterKey), tag) else { return nil }
            guard let device = reader.integer(), let inode = reader.integer(), let size = reader.integer(),
                let seconds = reader.integer(), let nanoseconds = reader.integer()
            else { return nil }
            let stamp = VaultFileStamp(
                device: device,
                inode: inode,
                size: size,
                modificationSeconds: seconds,
                modificationNanoseconds: nanoseconds
            )
            guard !reader.isAtEnd else { return VaultSnapshot(masterKey: masterKey, stamp: stamp, entries: nil) }
            guard let count = reader.integer(), count <= UInt64(bytes.count) else { return nil }
            var entries: [VaultEntry] = []
            entries.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let entry = reader.entry() else { return nil }
                entries.append(entry)
            }
            guard reader.isAtEnd else { return nil }
            return VaultSnapshot(masterKey: masterKey, stamp: stamp, entries: entries)
        }
        guard let decoded else { return nil }
        self = decoded
    }

    /// Appends fixed-width little-endian integers and length-prefixed strings.
    private struct Writer {
        var buffer: [UInt8] = []

        mutating func byte(_ value: UInt8) { buffer.append(value) }
        mutating func bytes(_ value: UnsafeRawBufferPointer) { buffer.append(contentsOf: value) }
        mutating func integer(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
        }
        mutating func string(_ value: String) {
            integer(UInt64(value.utf8.count))
            buffer.append(contentsOf: value.utf8)
        }
        mutating func wipe() {
            _ = buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }

        mutating func integer() -> UInt64? {
            guard let raw = bytes(8) else { return nil }
            return UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        }

        mutating func string() -> String? {
            guard let count = integer(), count <= UInt64(Int.max), let raw = bytes(Int(count)) else { return nil }
            return String(validating: raw, as: UTF8.self)
        }

        mutating func entry() -> VaultEntry? {
            guard let id = string(), let kind = byte(), kind <= 1, let algorithmName = string(),
                let algorithm = OTPAlgorithm(rawValue: algorithmName), let digits = integer(), let period = integer(),
                let counter = integer(), let issuer = string(), let name = string(), let secretCount = integer(),
                secretCount <= UInt64(OTPSecret.maximumByteCount), let secretBytes = bytes(Int(secretCount)),
                let secret = try? OTPSecret(bytes: secretBytes)
            else { return nil }
            let account = try? OTPAuthURI(
                kind: kind == 0 ? .totp : .hotp,
                issuer: issuer,
                accountName: name,
                secret: secret,
                algorithm: algorithm,
                digits: Int(clamping: digits),
                period: Int64(clamping: period),
                counter: kind == 0 ? nil : counter
            )
            guard let account else { return nil }
            return try? VaultEntry(id: id, account: account)
        }
    }
}
