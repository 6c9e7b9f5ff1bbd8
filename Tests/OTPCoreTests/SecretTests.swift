import Foundation
import OTPCore
import OTPTestUtilities
import Testing

@Suite("Secrets")
struct SecretTests {
    @Test(
        "Random secrets have the recommended length per algorithm and differ",
        arguments: [
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

    @Test("Keys longer than the hash block are hashed first (RFC 2104), as oathtool does", arguments: ExternalTool.oathtoolAlgorithms)
    func longKeys(algorithm: OTPAlgorithm) async throws {
        let block = algorithm.blockByteCount
        for length in [block - 1, block, block + 1, 2 * block + 3] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            // Time 30 with a 30-second step is counter 1.
            let oathtool = try await ProcessRunner.run(
                ExternalTool.oathtool.path(), ["--totp=\(ExternalTool.oathtoolName(of: algorithm) ?? "")", "-d", "8", "-N", "@30", hex])
            try #require(oathtool.status == 0, "\(oathtool)")
            let ours = try HOTP(secret: OTPSecret(bytes: bytes), algorithm: algorithm, digits: 8).code(counter: 1)
            #expect(ours + "\n" == oathtool.stdout, "\(length)-byte key")
        }
    }

    @Test(
        "Algorithm names parse leniently", arguments: [("sha1", OTPAlgorithm.sha1), ("SHA-256", .sha256), ("Sha512", .sha512), ("sha_256", .sha256)])
    func algorithmNames(name: String, algorithm: OTPAlgorithm) {
        #expect(OTPAlgorithm(name: name) == algorithm)
    }

    @Test("Unknown algorithm names are nil")
    func unknownAlgorithm() {
        #expect(OTPAlgorithm(name: "MD5") == nil)
        #expect(OTPAlgorithm(name: "") == nil)
    }
}
