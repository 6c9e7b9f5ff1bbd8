import Foundation
import OTPCore
import OTPSealing
import Testing

@Suite("Sealing secrets with AES-256-GCM")
struct SecretSealerTests {
    let keyA = try! SealingKey(bytes: (0..<32).map { UInt8($0) })
    let keyB = try! SealingKey(bytes: (0..<32).map { UInt8(255 - $0) })

    @Test("a sealed secret opens to the same secret, for every length", arguments: [10, 16, 20, 32, 64, 1024])
    func roundTrip(byteCount: Int) throws {
        let sealer = try SecretSealer(current: keyA)
        let secret = try OTPSecret.random(byteCount: byteCount)
        let sealed = try sealer.seal(secret, enrollmentID: "enrollment-1")
        #expect(sealed.bytes.count == 1 + 8 + 12 + byteCount + 16)
        #expect(sealed.keyID == keyA.id)
        #expect(try sealer.open(sealed, enrollmentID: "enrollment-1") == secret)
        #expect(try sealer.open(SealedSecret(bytes: sealed.bytes), enrollmentID: "enrollment-1") == secret)
    }

    @Test("the sealed bytes contain neither the secret nor its Base32")
    func noPlaintext() throws {
        let sealer = try SecretSealer(current: keyA)
        let secret = try OTPSecret.random(byteCount: 20)
        let sealed = try sealer.seal(secret, enrollmentID: "e")
        let raw = secret.withUnsafeBytes { Array($0) }
        #expect(!sealed.bytes.contains(subsequence: raw))
        #expect(!sealed.bytes.contains(subsequence: Array(secret.base32.utf8)))
    }

    @Test("sealing twice uses fresh nonces")
    func freshNonces() throws {
        let sealer = try SecretSealer(current: keyA)
        let secret = try OTPSecret.random(byteCount: 20)
        let first = try sealer.seal(secret, enrollmentID: "e")
        let second = try sealer.seal(secret, enrollmentID: "e")
        #expect(first != second)
        #expect(first.bytes[9..<21] != second.bytes[9..<21])
    }

    @Test("a sealed secret copied onto another enrollment fails to open")
    func boundToEnrollment() throws {
        let sealer = try SecretSealer(current: keyA)
        let sealed = try sealer.seal(OTPSecret.random(byteCount: 20), enrollmentID: "enrollment-1")
        #expect(throws: SealingError.authenticationFailed) { try sealer.open(sealed, enrollmentID: "enrollment-2") }
        #expect(throws: SealingError.authenticationFailed) { try sealer.open(sealed, enrollmentID: "enrollment-1 ") }
        #expect(throws: SealingError.authenticationFailed) { try sealer.open(sealed, enrollmentID: "") }
    }

    @Test("flipping any bit of the nonce, ciphertext or tag fails authentication")
    func tamperDetected() throws {
        let sealer = try SecretSealer(current: keyA)
        let sealed = try sealer.seal(OTPSecret.random(byteCount: 20), enrollmentID: "e")
        for index in 9..<sealed.bytes.count {
            for bit in 0..<8 {
                var bytes = sealed.bytes
                bytes[index] ^= 1 << bit
                #expect(throws: SealingError.authenticationFailed) {
                    try sealer.open(SealedSecret(bytes: bytes), enrollmentID: "e")
                }
            }
        }
    }

    @Test("relabelling a value with another key's id fails authentication")
    func keyIDAuthenticated() throws {
        let sealed = try SecretSealer(current: keyA).seal(OTPSecret.random(byteCount: 20), enrollmentID: "e")
        var bytes = sealed.bytes
        bytes.replaceSubrange(1...8, with: keyB.id.bytes)
        let both = try SecretSealer(current: keyB, previous: [keyA])
        #expect(throws: SealingError.authenticationFailed) { try both.open(SealedSecret(bytes: bytes), enrollmentID: "e") }
    }

    @Test("a value sealed under a key not in the keyring is an unknown-key error naming the key")
    func unknownKey() throws {
        let sealed = try SecretSealer(current: keyA).seal(OTPSecret.random(byteCount: 20), enrollmentID: "e")
        let error = #expect(throws: SealingError.unknownKey(keyA.id)) {
            try SecretSealer(current: keyB).open(sealed, enrollmentID: "e")
        }
        #expect(
            error?.description
                == "data is sealed under key \(keyA.id), which is not among the keys given: pass that key (as the current or a previous key)")
    }

    @Test("rotation: old values open with the previous key, and re-sealing moves them to the current key")
    func rotation() throws {
        let secret = try OTPSecret.random(byteCount: 32)
        let old = try SecretSealer(current: keyA).seal(secret, enrollmentID: "e")
        let rotating = try SecretSealer(current: keyB, previous: [keyA])
        #expect(try rotating.open(old, enrollmentID: "e") == secret)
        let moved = try #require(try rotating.reseal(old, enrollmentID: "e"))
        #expect(moved.keyID == keyB.id)
        #expect(try rotating.reseal(moved, enrollmentID: "e") == nil)
        #expect(try SecretSealer(current: keyB).open(moved, enrollmentID: "e") == secret)
        #expect(throws: SealingError.authenticationFailed) { try rotating.reseal(old, enrollmentID: "other") }
    }

    @Test("malformed sealed bytes are rejected with a reason")
    func malformed() {
        #expect(throws: SealingError.malformedSealedSecret("empty")) { try SealedSecret(bytes: []) }
        #expect(throws: SealingError.malformedSealedSecret("unknown format version 2")) {
            try SealedSecret(bytes: [2] + Array(repeating: 0, count: 60))
        }
        #expect(throws: SealingError.malformedSealedSecret("37 bytes is too short")) { try SealedSecret(bytes: [1] + Array(repeating: 0, count: 36)) }
    }

    @Test("the same key twice in a keyring is refused")
    func duplicateKey() {
        #expect(throws: SealingError.duplicateKey(keyA.id)) { try SecretSealer(current: keyA, previous: [keyB, keyA]) }
    }

    @Test("key ids are stable, distinct, and round-trip through hex")
    func keyIDs() throws {
        #expect(keyA.id != keyB.id)
        #expect(try SealingKey(bytes: (0..<32).map { UInt8($0) }).id == keyA.id)
        #expect(keyA.id.description.count == 16 && keyA.id.description.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(SealingKeyID(hex: keyA.id.description) == keyA.id)
        #expect(SealingKeyID(rawValue: keyA.id.rawValue) == keyA.id)
        #expect(SealingKeyID(hex: "xyz") == nil)
    }

    @Test("a key's description shows its id and never its bytes")
    func redacted() {
        let hex = (0..<32).map { String(format: "%02x", $0) }.joined()
        #expect(!"\(keyA)".contains(hex))
        #expect("\(keyA)" == "SealingKey(id: \(keyA.id), redacted)")
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<($0 + subsequence.count)].elementsEqual(subsequence) }
    }
}
