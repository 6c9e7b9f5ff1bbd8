import OTPCore
import Testing

@Suite("Secrets")
struct SecretTests {
    @Test("Random secrets have the recommended length per algorithm and differ", arguments: [
        (OTPAlgorithm.sha1, 20), (.sha256, 32), (.sha512, 64),
    ])
    func random(algorithm: OTPAlgorithm, byteCount: Int) throws {
        let first = try OTPSecret.random(for: algorithm)
        let second = try OTPSecret.random(for: algorithm)
        #expect(first.byteCount == byteCount)
        #expect(first != second)
    }

    @Test("Random lengths outside 10...1024 are refused")
    func randomLength() {
        #expect(throws: OTPError.invalidSecretLength(9)) { try OTPSecret.random(byteCount: 9) }
        #expect(throws: OTPError.invalidSecretLength(1025)) { try OTPSecret.random(byteCount: 1025) }
    }

    @Test("Base32 round trip and constant-time equality")
    func base32() throws {
        let secret = try OTPSecret.random(byteCount: 37)
        let decoded = try OTPSecret(base32: secret.base32.lowercased())
        #expect(decoded == secret)
        #expect(try OTPSecret(bytes: Array(repeating: 1, count: 10)) != OTPSecret(bytes: Array(repeating: 1, count: 11)))
    }

    @Test("Keys longer than the hash block are hashed first (RFC 2104)", arguments: OTPAlgorithm.allCases)
    func longKeys(algorithm: OTPAlgorithm) throws {
        let block = algorithm.blockByteCount
        let longKey = try OTPSecret(bytes: (0..<(block + 1)).map { UInt8(truncatingIfNeeded: $0) })
        let exactKey = try OTPSecret(bytes: (0..<block).map { UInt8(truncatingIfNeeded: $0) })
        // Both must work; the cross-check with oathtool covers their values up to 64 bytes.
        #expect(HOTPFromKey(longKey, algorithm).code(counter: 1) != HOTPFromKey(exactKey, algorithm).code(counter: 1))
    }

    @Test("Algorithm names parse leniently", arguments: [("sha1", OTPAlgorithm.sha1), ("SHA-256", .sha256), ("Sha512", .sha512), ("sha_256", .sha256)])
    func algorithmNames(name: String, algorithm: OTPAlgorithm) {
        #expect(OTPAlgorithm(name: name) == algorithm)
    }

    @Test("Unknown algorithm names are nil")
    func unknownAlgorithm() {
        #expect(OTPAlgorithm(name: "MD5") == nil)
        #expect(OTPAlgorithm(name: "") == nil)
    }

    private func HOTPFromKey(_ secret: OTPSecret, _ algorithm: OTPAlgorithm) -> HOTP {
        try! HOTP(secret: secret, algorithm: algorithm, digits: 8)
    }
}
