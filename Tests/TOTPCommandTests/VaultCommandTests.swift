import Foundation
import OTPTestUtilities
import Testing

/// The vault commands as a script uses them: add, list, NAME, code NAME, rm, rename, HOTP.
@Suite("Vault commands")
struct VaultCommandTests {
    static let github = "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub"
    static let gitlab = "otpauth://totp/GitLab:bob?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=GitLab&digits=8&algorithm=SHA256"

    @Test("added accounts are listed and their codes agree with oathtool, by name in any letter case")
    func addListAndCode() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let added = try await vault.run(["add", Self.github])
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout == "added GitHub:alice\n")
        #expect(try await vault.run(["add", Self.gitlab]).status == 0)

        let list = try await vault.run(["list"])
        #expect(list.stdout == "GitHub:alice  (totp, 6 digits, 30 s, SHA1)\nGitLab:bob  (totp, 8 digits, 30 s, SHA256)\n")
        let json = try await vault.run(["list", "--json"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["issuer"] as? String } == ["GitHub", "GitLab"])
        #expect(!json.stdout.contains("JBSWY3DPEHPK3PXP"), "a listing never shows a secret")

        _ = try ExternalTool.oathtool.path()
        for (name, oathArguments) in [
            ("github", ["--totp", "-b", "JBSWY3DPEHPK3PXP"]),
            ("GITLAB:BOB", ["--totp=sha256", "-d", "8", "-b", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"]),
        ] {
            // Codes change every 30 s: retry once if the two processes straddled a step.
            var agreed = false
            for _ in 0..<2 where !agreed {
                let ours = try await vault.run([name])
                let codeForm = try await vault.run(["code", name])
                let reference = try await ProcessRunner.run(ExternalTool.oathtool.path(), oathArguments)
                #expect(ours.status == 0, "\(ours)")
                agreed = ours.stdout == reference.stdout && codeForm.stdout == reference.stdout
            }
            #expect(agreed, "totp \(name) disagrees with oathtool")
        }
    }

    @Test("an ambiguous name lists the candidates and exits 64; an unknown one says so")
    func ambiguousName() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", Self.github]).status == 0)
        #expect(try await vault.run(["add", Self.gitlab]).status == 0)
        let ambiguous = try await vault.run(["git"])
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stdout.isEmpty)
        #expect(ambiguous.stderr == "totp code: 'git' matches 2 accounts: GitHub:alice, GitLab:bob; name one as issuer:account\n")
        let unknown = try await vault.run(["bitbucket"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no account in the vault matches 'bitbucket'"))
    }

    @Test("adding the same account twice keeps one; rm and rename change exactly one entry")
    func duplicatesRemoveRename() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", Self.github]).status == 0)
        let again = try await vault.run(["add", Self.github])
        #expect(again.stdout == "already in the vault: GitHub:alice\n")
        #expect(try await vault.run(["add", Self.gitlab]).status == 0)

        let renamed = try await vault.run(["rename", "gitlab", "Work GitLab:bob@example.com"])
        #expect(renamed.stdout == "renamed to Work GitLab:bob@example.com\n", "\(renamed)")
        let removed = try await vault.run(["rm", "github"])
        #expect(removed.stdout == "removed GitHub:alice\n")
        #expect(try await vault.run(["list"]).stdout == "Work GitLab:bob@example.com  (totp, 8 digits, 30 s, SHA256)\n")
        #expect(FileManager.default.fileExists(atPath: vault.vaultPath + ".bak"), "the previous version is kept")
    }

    @Test("HOTP: each code uses the stored counter and stores the next first; --counter resynchronizes")
    func hotpCounter() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        #expect(
            try await vault.run(["add", "--secret", "-", "--issuer", "Bank", "--account", "me", "--hotp", "--counter", "5"], input: secret).status
                == 0)
        let oathtool = try ExternalTool.oathtool.path()
        func reference(_ counter: Int) async throws -> String {
            try await ProcessRunner.run(oathtool, ["--hotp", "-c", "\(counter)", "-b", secret]).stdout
        }
        #expect(try await vault.run(["bank"]).stdout == (try await reference(5)))
        #expect(try await vault.run(["bank"]).stdout == (try await reference(6)))
        #expect(try await vault.run(["code", "bank", "--counter", "20"]).stdout == (try await reference(20)))
        #expect(try await vault.run(["bank"]).stdout == (try await reference(21)))
        #expect(try await vault.run(["list"]).stdout == "Bank:me  (hotp, 6 digits, next counter 22, SHA1)\n")
    }

    @Test("a passphrase from the environment or a descriptor opens the vault; a wrong one exits 77 and writes nothing")
    func passphrases() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", Self.github], environment: vault.passphraseEnvironment("correct horse")).status == 0)
        let before = vault.vaultBytes

        let wrong = try await vault.run(["add", Self.gitlab], environment: vault.passphraseEnvironment("wrong horse"))
        #expect(wrong.status == 77)
        #expect(wrong.stderr == "totp add: the passphrase does not open this vault\n")
        #expect(vault.vaultBytes == before, "a refused operation writes nothing")

        let totp = try ProcessRunner.shellQuoted(TOTPProcess.executable())
        let fromDescriptor = try await ProcessRunner.shell(
            "\(totp) list --passphrase-fd 3 3<<'EOF'\ncorrect horse\nEOF", environment: vault.bareEnvironment)
        #expect(fromDescriptor.status == 0, "\(fromDescriptor)")
        #expect(fromDescriptor.stdout == "GitHub:alice  (totp, 6 digits, 30 s, SHA1)\n")

        let keyFile = try await vault.run(["list"])
        #expect(keyFile.status == 77, "a passphrase vault has no key-file slot: \(keyFile)")
        #expect(keyFile.stderr.contains("no key-file slot"))

        let noCredential = try await vault.run(["list"], environment: vault.bareEnvironment)
        #expect(noCredential.status == 64)
        #expect(noCredential.stderr.contains("no terminal to ask for the vault passphrase"))
    }

    @Test("unlock keeps the vault open for later commands without a credential; lock ends it")
    func unlockAndLock() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", Self.github]).status == 0)
        let unlocked = try await vault.run(["unlock", "--timeout", "5"])
        #expect(unlocked.status == 0, "\(unlocked)")
        defer { Task { _ = try? await vault.run(["lock"], environment: vault.bareEnvironment) } }

        let code = try await vault.run(["github"], environment: vault.bareEnvironment)
        #expect(code.status == 0, "\(code)")
        #expect(code.stdout.count == 7)
        // A change through the session refreshes it: the next read sees the new account.
        #expect(try await vault.run(["add", Self.gitlab], environment: vault.bareEnvironment).status == 0)
        #expect(try await vault.run(["gitlab"], environment: vault.bareEnvironment).stdout.count == 9)

        #expect(try await vault.run(["lock"], environment: vault.bareEnvironment).stdout == "locked\n")
        let locked = try await vault.run(["github"], environment: vault.bareEnvironment)
        #expect(locked.status == 64, "locked, there is no credential and no terminal: \(locked)")
    }

    @Test("a missing vault is reported with how to create one")
    func missingVault() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let run = try await vault.run(["list"])
        #expect(run.status == 66)
        #expect(
            run.stderr
                == "totp list: there is no vault at \(vault.vaultPath): add an account with totp add to create it, or choose the vault with --vault or TOTP_VAULT\n"
        )
    }

    @Test("passphrase replaces the passphrase slot at a raised scrypt cost; key-file adds a key-file slot; the accounts stay")
    func changeCredentials() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", Self.github], environment: vault.passphraseEnvironment("old one")).status == 0)
        let totp = try ProcessRunner.shellQuoted(TOTPProcess.executable())
        let changed = try await ProcessRunner.shell(
            "\(totp) passphrase --scrypt-cost 17 --new-passphrase-fd 3 3<<'EOF'\nnew one\nEOF", environment: vault.passphraseEnvironment("old one"))
        #expect(changed.status == 0, "\(changed)")
        #expect(changed.stdout == "the vault's passphrase is set (scrypt cost 2^17)\n")
        let bytes = try #require(vault.vaultBytes)
        let file = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        let slots = try #require((file["header"] as? [String: Any])?["slots"] as? [[String: Any]])
        #expect(slots.map { $0["type"] as? Int } == [1])
        #expect(slots.first?["n"] as? Int == 1 << 17)
        #expect(try await vault.run(["list"], environment: vault.passphraseEnvironment("old one")).status == 77)
        #expect(try await vault.run(["list"], environment: vault.passphraseEnvironment("new one")).stdout.hasPrefix("GitHub:alice"))

        let added = try await vault.run(["key-file", vault.keyFile], environment: vault.passphraseEnvironment("new one"))
        #expect(added.status == 0, "\(added)")
        #expect(try await vault.run(["list"]).stdout.hasPrefix("GitHub:alice"), "the key file opens it now")
        #expect(try await vault.run(["list"], environment: vault.passphraseEnvironment("new one")).status == 0, "and the passphrase still does")
    }
}
