import Foundation
import OTPTestUtilities
import Testing

/// The vault as a person uses it at a terminal: prompts without echo, unlock, `totp NAME`, lock.
/// Driven by Python's pexpect (Debian's python3-pexpect) through a pseudo-terminal.
@Suite("Vault at a terminal")
struct VaultTerminalTests {
    static let script = #"""
        import io, os, re, sys
        import pexpect

        totp, vault = sys.argv[1], sys.argv[2]
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOTP_")}
        env["TOTP_VAULT"] = vault
        passphrase = "correct horse battery"

        def run(arguments, answers=()):
            child = pexpect.spawn(totp, arguments, env=env, timeout=60)
            # Everything the terminal showed, prompts and any echo included.
            child.logfile_read = transcript = io.BytesIO()
            for prompt, answer in answers:
                child.expect_exact(prompt)
                child.sendline(answer)
            child.expect(pexpect.EOF)
            child.close()
            return child.exitstatus, transcript.getvalue().decode()

        # The first add creates the vault: the passphrase is asked twice, never echoed.
        status, output = run(["add", "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub"],
                             [("New vault passphrase: ", passphrase), ("Repeat the passphrase: ", passphrase)])
        assert status == 0, (status, output)
        assert "added GitHub:alice" in output, output
        assert passphrase not in output, "the passphrase was echoed"

        # Two different answers create nothing more.
        status, output = run(["add", "--vault", vault + ".other", "otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP"],
                             [("New vault passphrase: ", "one"), ("Repeat the passphrase: ", "two")])
        assert status == 64 and "the two passphrases differ" in output, (status, output)
        assert not os.path.exists(vault + ".other")

        # Unlock once; then the code needs no passphrase.
        status, output = run(["unlock", "--timeout", "5"], [("Vault passphrase: ", passphrase)])
        assert status == 0 and "unlocked" in output, (status, output)
        assert passphrase not in output
        status, output = run(["github"])
        assert status == 0 and re.match(r"^\d{6}  [█░]{10} \d+s\r\n$", output), (status, output)
        print("code", output.split()[0])

        # Locked, the passphrase is asked again; a wrong one is refused with 77.
        status, output = run(["lock"])
        assert status == 0 and "locked" in output, (status, output)
        status, output = run(["github"], [("Vault passphrase: ", "wrong horse")])
        assert status == 77 and "the passphrase does not open this vault" in output, (status, output)
        print("ok")
        """#

    @Test("passphrase prompts without echo, unlock, totp NAME, lock, under a pseudo-terminal")
    func session() async throws {
        let directory = try TemporaryDirectory(prefix: "otpkit-terminal")
        defer { directory.remove() }
        let start = ExternalTool.unixTime()
        let run = try await ProcessRunner.run(
            ExternalTool.debianPython3.path(), ["-c", Self.script, try TOTPProcess.executable(), directory.file("vault.json")])
        let end = ExternalTool.unixTime()
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasSuffix("ok\n"), "\(run)")
        let code = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("code ") })
        // oathtool's code for a step of the run: a loaded machine may take longer than a step.
        let codes = try await ExternalTool.oathtoolCodes(base32: "JBSWY3DPEHPK3PXP", from: start, through: end)
        #expect(codes.contains(String(code.dropFirst(5))), "\(code) is not oathtool's code at any step from \(start) to \(end)")
    }
}
