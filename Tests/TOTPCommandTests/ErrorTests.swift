import Foundation
import OTPTestUtilities
import Testing

/// Every bad input: one line on standard error naming the problem, nothing on standard output,
/// the documented exit status, and never the secret.
@Suite("Errors")
struct ErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        let status: Int32
        var input: String? = nil
        var environment: [String: String] = [:]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let secret = Seeds.sha1
    static let usage: Int32 = 64

    static let cases: [Case] = [
        Case(
            arguments: ["code", "GEZDGNBVGY3TQOJ1GEZDGNBVGY3TQOJQ"],
            message: "totp code: invalid secret (argument): invalid Base32 character '1' at offset 15: use A-Z and 2-7", status: usage),
        Case(
            arguments: ["code", "GEZDGNBVG"],
            message: "totp code: invalid secret (argument): invalid Base32 length 9: no encoding produces it (the secret may be truncated)",
            status: usage),
        Case(
            arguments: ["code", "GEZDGNBV"],
            message: "totp code: invalid secret (argument): secret too short: 5 bytes, at least 10 needed", status: usage),
        Case(
            arguments: ["code", secret, "--algorithm", "md5"],
            message: "totp code: The value 'md5' is invalid for '--algorithm <algorithm>': use sha1, sha256 or sha512", status: usage),
        Case(arguments: ["code", secret, "--digits", "5"], message: "totp code: invalid number of digits 5: use 6 to 10", status: usage),
        Case(arguments: ["code", secret, "--digits", "11"], message: "totp code: invalid number of digits 11: use 6 to 10", status: usage),
        Case(
            arguments: ["code", secret, "--period", "0"],
            message: "totp code: invalid period 0: the time step must be at least 1 second", status: usage),
        Case(
            arguments: ["code", secret, "--time", "yesterday"],
            message: "totp code: invalid time 'yesterday': use Unix seconds or ISO 8601 such as 2005-03-18T01:58:29Z", status: usage),
        Case(
            arguments: ["code", secret, "--time", "2005-02-30T00:00:00Z"],
            message: "totp code: invalid time '2005-02-30T00:00:00Z': use Unix seconds or ISO 8601 such as 2005-03-18T01:58:29Z", status: usage),
        Case(
            arguments: ["code", secret, "--time", "2005-03-18T01:58:29"],
            message: "totp code: time '2005-03-18T01:58:29' has no time zone: add Z for UTC or an offset such as +01:00", status: usage),
        Case(arguments: ["code", secret, "--time=-5"], message: "totp code: time -5 is before the epoch T0 = 0", status: usage),
        Case(
            arguments: ["code", "--secret-file", "/nonexistent/secret"],
            message: "totp code: cannot read '/nonexistent/secret': No such file or directory", status: 66),
        Case(
            arguments: ["code"],
            message:
                "totp code: missing secret: pass it as an argument, with --secret-file FILE or --uri URI, as - on standard input, or in TOTP_SECRET",
            status: usage),
        Case(
            arguments: ["code", "--uri", "otpauth://totp/x?secret=GEZDGNBVGY3TQOJ1"],
            message: "totp code: invalid URI (--uri): invalid secret parameter: invalid Base32 character '1' at offset 15: use A-Z and 2-7",
            status: usage),
        Case(
            arguments: ["code", "--uri", "http://x"],
            message: "totp code: invalid URI (--uri): not an otpauth:// URI: it must start with otpauth://totp/ or otpauth://hotp/", status: usage),
        Case(
            arguments: ["code", "--uri", "otpauth://totp/x?digits=6"],
            message: "totp code: invalid URI (--uri): the URI has no secret parameter", status: usage),
        Case(
            arguments: ["code", "--uri", "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&algorithm=MD5"],
            message: "totp code: invalid URI (--uri): unknown algorithm 'MD5': use SHA1, SHA256 or SHA512", status: usage),
        Case(
            arguments: ["code", "-"], message: "totp code: invalid URI (standard input): invalid period '0': use a positive number of seconds",
            status: usage, input: "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&period=0\n"),
        Case(
            arguments: ["code", "--uri", "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ", secret],
            message: "totp code: give the secret one way, not with SECRET and --uri", status: usage),
        Case(
            arguments: ["uri", "inspect", "otpauth://totp/x?secret=GEZDGNBVGY3TQOJQ&digits=eight"],
            message: "totp uri inspect: invalid URI: invalid digits 'eight': use a number from 6 to 10", status: usage),
        Case(
            arguments: ["uri", "make", "--secret", "GEZDGNBVGY3TQOJ!", "--account", "a"],
            message: "totp uri make: invalid secret (--secret): invalid Base32 character '!' at offset 15: use A-Z and 2-7", status: usage),
        Case(
            arguments: ["uri", "make", "--secret", secret, "--account", "a", "--firebase"],
            message: "totp uri make: --firebase needs --issuer: Firebase always names one", status: usage),
        Case(
            arguments: ["uri", "make", "--secret", secret, "--account", "a", "--hotp"],
            message: "totp uri make: --hotp needs the counter: add --counter N", status: usage),
        Case(arguments: ["code", "-"], message: "totp code: the secret (standard input) is empty", status: usage, input: "\n"),
        Case(arguments: ["code"], message: "totp code: the secret (TOTP_SECRET) is empty", status: usage, environment: ["TOTP_SECRET": " "]),
        Case(
            arguments: ["code"],
            message: "totp code: invalid secret (TOTP_SECRET): invalid Base32 character '!' at offset 4: use A-Z and 2-7",
            status: usage, environment: ["TOTP_SECRET": "GEZD!GNBVGY3TQOJQ"]),
        Case(
            arguments: ["code", secret, "--secret-file", "/etc/hostname"],
            message: "totp code: give the secret one way, not with SECRET and --secret-file", status: usage),
        Case(arguments: ["code", secret, "--hotp"], message: "totp code: --hotp needs the counter: add --counter N", status: usage),
        Case(
            arguments: ["code", secret, "--counter", "1", "--time", "59"],
            message: "totp code: --time applies to TOTP only: HOTP codes depend on --counter", status: usage),
        Case(arguments: ["code", secret, "--counter", "-1"], message: "totp code: Missing value for '--counter <n>'", status: usage),
        Case(
            arguments: ["code", secret, "--digits", "six"],
            message: "totp code: The value 'six' is invalid for '--digits <n>'", status: usage),
        Case(arguments: ["code", secret, "--watch", "--time", "59"], message: "totp code: --watch follows the clock: drop --time", status: usage),
        Case(
            arguments: ["code", "--uri", "otpauth://hotp/x?secret=\(secret)&counter=1", "--watch"],
            message: "totp code: --watch applies to TOTP only", status: usage),
        Case(arguments: ["code", secret, "--bogus"], message: "totp code: Unknown option '--bogus'", status: usage),
        // A secret in the wrong place is not echoed by ArgumentParser's messages.
        Case(arguments: ["code", "--digits", secret], message: "totp code: The value '<redacted>' is invalid for '--digits <n>'", status: usage),
        Case(arguments: ["code", secret, secret], message: "totp code: Unexpected argument '<redacted>'", status: usage),
        Case(
            arguments: ["uri", "inspect", "x", "otpauth://totp/x?secret=\(secret)"],
            message: "totp uri inspect: Unexpected argument '<redacted>'", status: usage),
        Case(arguments: ["frobnicate"], message: "totp: Unexpected argument 'frobnicate'", status: usage),
        Case(arguments: ["verify"], message: "totp verify: Missing expected argument '<code>'", status: usage),
        Case(arguments: ["verify", "12345", secret], message: "totp verify: invalid code length 5: expected 6 digits", status: 1),
        Case(arguments: ["verify", "12a456", secret], message: "totp verify: invalid code: character at offset 2 is not a digit", status: 1),
        Case(
            arguments: ["verify", "123456", secret, "--window", "101"],
            message: "totp verify: invalid drift window (101 behind, 101 ahead): each side must be 0 to 100", status: usage),
        Case(
            arguments: ["verify", "123456", secret, "--counter", "1", "--behind", "1"],
            message: "totp verify: HOTP verification looks ahead only: use --ahead or --window", status: usage),
        Case(
            arguments: ["verify", "123456", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJ8"],
            message: "totp verify: invalid secret (argument): invalid Base32 character '8' at offset 31: use A-Z and 2-7", status: usage),
    ]

    @Test("bad input", arguments: cases)
    func badInput(_ testCase: Case) async throws {
        let run = try await TOTPProcess.run(testCase.arguments, input: testCase.input, environment: testCase.environment)
        #expect(run.status == testCase.status, "\(run)")
        #expect(run.stderr == testCase.message + "\n")
        #expect(run.stdout == "")
        #expect(!run.stderr.contains("GEZDGNBVGY3TQOJ"), "the secret leaked into the message")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Stack dump"))
    }
}
