import OTPCore
import OTPURI
@testable import OTPVault
import Testing

/// The payload `totp unlock` keeps in the kernel keyring, authenticated under the master key.
@Suite("Vault keyring snapshot")
struct VaultSnapshotTests {
    static func masterKey(_ byte: UInt8) -> SecureBytes {
        SecureBytes(count: 32) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: byte)
            return 32
        }
    }

    static func snapshot(key: UInt8 = 7, issuer: String = "GitHub") throws -> VaultSnapshot {
        let account = try OTPAuthURI(
            kind: .totp, issuer: issuer, accountName: "alice", secret: try OTPSecret(base32: "JBSWY3DPEHPK3PXP"), algorithm: .sha1, digits: 6,
            period: 30, counter: nil)
        return VaultSnapshot(
            masterKey: masterKey(key),
            stamp: VaultFileStamp(device: 1, inode: 2, size: 3, modificationSeconds: 4, modificationNanoseconds: 5),
            entries: [try VaultEntry(id: "entry-1", account: account)])
    }

    static func bytes(_ payload: SecureBytes) -> [UInt8] { payload.withUnsafeBytes { Array($0) } }

    static func payload(_ bytes: [UInt8]) -> SecureBytes {
        SecureBytes(count: bytes.count) { buffer in
            buffer.copyBytes(from: bytes)
            return bytes.count
        }
    }

    @Test("a snapshot reads back whole; any byte changed, a tag from another key, or a shorter payload is not trusted")
    func tamperedPayloadsAreIgnored() throws {
        let original = try Self.snapshot()
        let encoded = Self.bytes(original.encoded(maximumByteCount: VaultSession.maximumPayloadByteCount))
        let decoded = try #require(VaultSnapshot(decoding: Self.payload(encoded)))
        #expect(decoded.entries?.map(\.account.issuer) == ["GitHub"] && decoded.stamp == original.stamp)
        #expect(Self.bytes(decoded.masterKey) == Self.bytes(original.masterKey))

        for index in encoded.indices {
            var changed = encoded
            changed[index] ^= 0x01
            #expect(VaultSnapshot(decoding: Self.payload(changed)) == nil, "byte \(index) changed")
        }
        #expect(VaultSnapshot(decoding: Self.payload(Array(encoded.dropLast()))) == nil)
        // Another unlock's entries behind this one's tag, and the same content tagged under another key.
        let other = Self.bytes(try Self.snapshot(issuer: "GitLab").encoded(maximumByteCount: VaultSession.maximumPayloadByteCount))
        #expect(VaultSnapshot(decoding: Self.payload(Array(other.dropLast(32)) + encoded.suffix(32))) == nil)
        let content = Array(encoded.dropLast(32))
        let foreignTag = content.withUnsafeBytes { VaultSnapshot.tag(of: $0, masterKey: Self.masterKey(8)) }
        #expect(VaultSnapshot(decoding: Self.payload(content + foreignTag)) == nil)
    }

    @Test("the tag is HMAC-SHA256 under a key derived from the master key, as RFC 4231's vectors check the HMAC")
    func hmacVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let jefe = Array("what do ya want for nothing?".utf8).withUnsafeBytes { HMACSHA256.code(key: Array("Jefe".utf8), message: $0) }
        #expect(hex(jefe) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let long = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8).withUnsafeBytes {
            HMACSHA256.code(key: [UInt8](repeating: 0xaa, count: 131), message: $0)
        }
        #expect(hex(long) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
