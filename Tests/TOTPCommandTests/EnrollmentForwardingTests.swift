import Foundation
import OTPTestUtilities
import Testing

@Suite("totp enroll, signin, … run totp-enrollment")
struct EnrollmentForwardingTests {
    @Test("totp keygen writes a key through totp-enrollment")
    func keygen() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let key = directory.url.appendingPathComponent("otpkit.key").path
        let run = try await TOTPProcess.run(["keygen", key])
        #expect(run.status == 0, "\(run)")
        let text = try String(contentsOfFile: key, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n"))
        #expect(text.dropLast().allSatisfy { $0.isHexDigit }, "\(text.debugDescription)")
    }

    @Test("help for the forwarded commands comes from totp-enrollment")
    func help() async throws {
        let run = try await TOTPProcess.run(["signin", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("OVERVIEW: Sign in with a second factor (TOTP or phone): ask for a code and"), "\(run)")
        #expect(run.stdout.contains("USAGE: totp-enrollment signin"), "the help comes from totp-enrollment")
        // That `totp --help` lists them is checked in-process by HelpSnapshotTests.
    }
}
