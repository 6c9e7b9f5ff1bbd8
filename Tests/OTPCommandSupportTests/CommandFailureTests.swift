import OTPCommandSupport
import OTPCore
import OTPQR
import Testing

@Suite("One failure type, one exit-code table")
struct CommandFailureTests {
    @Test("each kind of failure exits with its sysexits.h status")
    func statuses() {
        #expect(CommandFailure.refused("x").exitCode == 1)
        #expect(CommandFailure.usage("x").exitCode == 64)
        #expect(CommandFailure.noInput("x").exitCode == 66)
        #expect(CommandFailure.unavailable("x").exitCode == 69)
        #expect(CommandFailure.software("x").exitCode == 70)
        #expect(CommandFailure.cannotCreate("x").exitCode == 73)
        #expect(CommandFailure.ioError("x").exitCode == 74)
    }

    @Test("OTPCore errors: malformed codes are refused, OpenSSL failures internal, the rest bad input")
    func otpErrors() {
        #expect(CommandFailure(OTPError.invalidCodeLength(expected: 6, actual: 5)).status == .refused)
        #expect(CommandFailure(OTPError.cryptoFailure("x")).status == .software)
        let digits = CommandFailure(OTPError.invalidDigits(5), context: "--digits")
        #expect(digits.status == .usage)
        #expect(digits.message == "--digits: \(OTPError.invalidDigits(5))")
    }

    @Test("QR errors: encoder and PNG failures are internal, text and options are bad input")
    func qrErrors() {
        #expect(CommandFailure(QRCodeError.emptyInput).status == .usage)
        #expect(CommandFailure(QRCodeError.inputTooLong(byteCount: 3000, maximum: 2331, errorCorrection: .medium)).status == .usage)
        #expect(CommandFailure(QRCodeError.encodingFailed(errno: 12)).status == .software)
        #expect(CommandFailure(QRCodeError.pngFailure("x"), context: "cannot draw").message == "cannot draw: libpng failed: x")
    }

    @Test("reporting keeps its own failures and classifies the rest")
    func reporting() {
        #expect(throws: CommandFailure.self) { try CommandFailure.reporting { throw CommandFailure.unavailable("gone") } }
        do {
            _ = try CommandFailure.reporting { throw CommandFailure.unavailable("gone") }
        } catch {
            #expect(error.status == .unavailable && error.message == "gone")
        }
        do {
            _ = try CommandFailure.reporting { throw OTPError.invalidDigits(11) }
        } catch {
            #expect(error.status == .usage)
        }
    }
}
