import Foundation
import Testing

@Suite("totp enroll, signin, … run totp-enrollment")
struct EnrollmentForwardingTests {
    @Test("totp keygen writes a key through totp-enrollment")
    func keygen() throws {
        let directory = try TOTPProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("otpkit.key").path
        let run = try TOTPProcess.run(["keygen", key])
        #expect(run.status == 0, "\(run)")
        let text = try String(contentsOfFile: key, encoding: .utf8)
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines).count == 64)
    }

    @Test("help for the forwarded commands comes from totp-enrollment")
    func help() throws {
        let run = try TOTPProcess.run(["signin", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("signin"))
        #expect(run.stdout.contains("USAGE: totp-enrollment signin"), "the help comes from totp-enrollment")
        // That `totp --help` lists them is checked in-process by HelpSnapshotTests.
    }
}
