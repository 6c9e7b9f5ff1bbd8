import OTPCore
import Testing

@Suite("Bad input is a typed error")
struct InputErrorTests {
    let secret = try! OTPSecret(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")

    @Test("Digits outside 6...10", arguments: [-1, 0, 5, 11, 100])
    func digits(digits: Int) {
        #expect(throws: OTPError.invalidDigits(digits)) { try HOTP(secret: secret, digits: digits) }
        #expect(throws: OTPError.invalidDigits(digits)) { try TOTP(secret: secret, digits: digits) }
    }

    @Test("Digits 6 to 10 are all accepted and zero-padded", arguments: 6...10)
    func validDigits(digits: Int) throws {
        let code = try HOTP(secret: secret, digits: digits).code(counter: 0)
        #expect(code.count == digits)
        #expect(code.allSatisfy(\.isASCII) && code.allSatisfy(\.isNumber))
    }

    @Test("A period below one second", arguments: [0, -1, -30] as [Int64])
    func period(period: Int64) {
        #expect(throws: OTPError.invalidPeriod(period)) { try TOTP(secret: secret, period: period) }
    }

    @Test("A time before T0")
    func timeBeforeEpoch() throws {
        let totp = try TOTP(secret: secret, epoch: 1_000)
        #expect(throws: OTPError.timeBeforeEpoch(time: 999, epoch: 1_000)) { try totp.code(at: 999) }
        #expect(throws: OTPError.timeBeforeEpoch(time: -5, epoch: 0)) { try TOTP(secret: secret).step(at: -5) }
        #expect(throws: OTPError.timeBeforeEpoch(time: 999, epoch: 1_000)) { try totp.verify("123456", at: 999) }
        #expect(try totp.step(at: 1_000) == 0)
        #expect(try totp.step(at: 1_029) == 0)
        #expect(try totp.step(at: 1_030) == 1)
    }

    @Test(
        "Malformed codes",
        arguments: [
            ("12345", OTPError.invalidCodeLength(expected: 6, actual: 5)),
            ("1234567", .invalidCodeLength(expected: 6, actual: 7)),
            ("", .invalidCodeLength(expected: 6, actual: 0)),
            ("12a456", .invalidCodeCharacter(offset: 2)),
            ("123 456", .invalidCodeCharacter(offset: 3)),
            ("-12345", .invalidCodeCharacter(offset: 0)),
            ("12345６", .invalidCodeCharacter(offset: 5)),
            ("١٢٣٤٥٦", .invalidCodeCharacter(offset: 0)),
            ("99999999999999999999999", .invalidCodeLength(expected: 6, actual: 23)),
        ])
    func malformedCode(code: String, error: OTPError) throws {
        let totp = try TOTP(secret: secret)
        #expect(throws: error) { try totp.verify(code, at: 59) }
        #expect(throws: error) { try totp.hotp.verify(code, counter: 1) }
    }

    @Test("Secrets shorter than 80 bits are refused; 80 bits are accepted")
    func shortSecret() throws {
        #expect(throws: OTPError.secretTooShort(byteCount: 9, minimum: 10)) { try OTPSecret(bytes: [UInt8](repeating: 1, count: 9)) }
        #expect(throws: OTPError.secretTooShort(byteCount: 0, minimum: 10)) { try OTPSecret(base32: "") }
        #expect(throws: OTPError.secretTooShort(byteCount: 5, minimum: 10)) { try OTPSecret(base32: "MZXW6YTB") }
        let github = try OTPSecret(base32: "JBSWY3DPEHPK3PXP")
        #expect(github.byteCount == 10)
        #expect(try TOTP(secret: github).code(at: 0).count == 6)
    }

    @Test("Invalid Base32 in a secret")
    func invalidSecret() {
        #expect(throws: OTPError.invalidBase32Character("1", offset: 3)) { try OTPSecret(base32: "JBS1Y3DPEHPK3PXP") }
    }

    @Test("Windows outside 0...100 steps")
    func window() throws {
        #expect(throws: OTPError.invalidWindow(behind: -1, ahead: 1)) { try VerificationWindow(behind: -1, ahead: 1) }
        #expect(throws: OTPError.invalidWindow(behind: 101, ahead: 101)) { try VerificationWindow(adjacentIntervals: 101) }
        #expect(throws: OTPError.invalidWindow(behind: 0, ahead: -2)) { try HOTP(secret: secret).verify("123456", counter: 0, lookAhead: -2) }
    }

    @Test("Every error message says what was wrong without echoing a secret")
    func messages() {
        #expect(OTPError.invalidDigits(5).description == "invalid number of digits 5: use 6 to 10")
        #expect(OTPError.invalidBase32Character("1", offset: 3).description == "invalid Base32 character '1' at offset 3: use A-Z and 2-7")
        #expect(OTPError.invalidBase32Character("\u{7}", offset: 0).description == "invalid Base32 character U+7 at offset 0: use A-Z and 2-7")
        #expect(OTPError.timeBeforeEpoch(time: 5, epoch: 10).description == "time 5 is before the epoch T0 = 10")
        #expect(OTPError.invalidPeriod(0).description == "invalid period 0: the time step must be at least 1 second")
        #expect(!String(describing: secret).contains(secret.base32))
        #expect(!String(describing: PreparedKey(secret: secret)).contains(secret.base32))
    }
}
