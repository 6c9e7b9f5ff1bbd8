import OTPCore
import OTPTestUtilities
import Testing

@Suite("RFC test vectors")
struct RFCVectorTests {
    @Test("RFC 4226 Appendix D", arguments: try TestVectors.hotp().vectors)
    func hotp(vector: TestVectors.HOTPFile.Vector) throws {
        let file = try TestVectors.hotp()
        let secret = try OTPSecret(bytes: Array(file.secretASCII.utf8))
        let hotp = try HOTP(secret: secret, digits: file.digits)
        #expect(hotp.key.truncatedValue(counter: vector.counter) == vector.truncatedDecimal)
        #expect(hotp.code(counter: vector.counter) == vector.code)
    }

    @Test("RFC 6238 Appendix B", arguments: try TestVectors.totp().vectors)
    func totp(vector: TestVectors.TOTPFile.Vector) throws {
        let file = try TestVectors.totp()
        let algorithm = try #require(OTPAlgorithm(rawValue: vector.algorithm))
        let seed = try #require(file.seedsASCII[vector.algorithm])
        let totp = try TOTP(
            secret: OTPSecret(bytes: Array(seed.utf8)),
            algorithm: algorithm,
            digits: file.digits,
            period: file.period
        )
        #expect(try totp.step(at: vector.time) == UInt64(vector.stepHex, radix: 16))
        #expect(try totp.code(at: vector.time) == vector.code)
        let match = try totp.verify(vector.code, at: vector.time, window: .exact)
        #expect(match == TOTPMatch(step: try totp.step(at: vector.time), offset: 0))
    }

    @Test("RFC 4648 section 10, encoding", arguments: try TestVectors.base32().vectors)
    func base32Encode(vector: TestVectors.Base32File.Vector) {
        let unpadded = vector.encoded.filter { $0 != "=" }
        #expect(Base32.encode(Array(vector.decoded.utf8)) == unpadded)
    }

    @Test("RFC 4648 section 10, decoding padded and unpadded, lenient and strict", arguments: try TestVectors.base32().vectors)
    func base32Decode(vector: TestVectors.Base32File.Vector) throws {
        let expected = Array(vector.decoded.utf8)
        let unpadded = vector.encoded.filter { $0 != "=" }
        for mode in [Base32.DecodingMode.lenient, .strict] {
            #expect(try Base32.decode(vector.encoded, mode: mode) == expected)
            #expect(try Base32.decode(unpadded, mode: mode) == expected)
        }
        #expect(try Base32.decode(vector.encoded.lowercased()) == expected)
    }
}
