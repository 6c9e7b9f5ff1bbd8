import Foundation
import OTPTestUtilities
import OTPVault
import Testing

/// What must hold whatever happens to a vault: concurrent writers, a writer killed mid-save,
/// a damaged file.
@Suite("Vault safety")
struct VaultSafetyTests {
    /// Accounts told apart by name (a duplicate is the same secret under the same name).
    static func uri(_ index: Int) -> String {
        "otpauth://totp/Load:account\(index)?secret=JBSWY3DPEHPK3PXP&issuer=Load"
    }

    @Test("two processes adding 50 accounts each at once: none lost, the vault always opens")
    func concurrentAdds() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let totp = try ProcessRunner.shellQuoted(TOTPProcess.executable())
        func script(_ range: Range<Int>) -> String {
            range.map { "\(totp) add \(ProcessRunner.shellQuoted(Self.uri($0))) >/dev/null || exit 1" }.joined(separator: "\n")
        }
        async let first = ProcessRunner.shell(script(0..<50), environment: vault.keyFileEnvironment)
        async let second = ProcessRunner.shell(script(50..<100), environment: vault.keyFileEnvironment)
        let results = try await [first, second]
        for result in results { #expect(result.status == 0, "\(result)") }
        let list = try await vault.run(["list", "--json"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(Set(objects.compactMap { $0["account"] as? String }) == Set((0..<100).map { "account\($0)" }))
    }

    @Test("kill -9 during saves: the vault is always the old or the new version")
    func killedWriters() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", Self.uri(1000)]).status == 0)
        let totp = try TOTPProcess.executable()
        var count = 1
        for round in 0..<30 {
            // Kill after a random delay, from before the process starts its save to after it ends.
            let delay = Double.random(in: 0...0.03)
            let script =
                "\(ProcessRunner.shellQuoted(totp)) add \(ProcessRunner.shellQuoted(Self.uri(round))) >/dev/null 2>&1 & pid=$!; sleep \(delay); kill -9 $pid 2>/dev/null; wait $pid; exit 0"
            _ = try await ProcessRunner.shell(script, environment: vault.keyFileEnvironment)
            let list = try await vault.run(["list", "--json"])
            #expect(list.status == 0, "round \(round): the vault does not open after kill -9: \(list)")
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            #expect(
                objects.count == count || objects.count == count + 1, "round \(round): \(objects.count) accounts, expected \(count) or \(count + 1)")
            count = objects.count
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: vault.directory.path).filter { $0.contains(".tmp.") }
            for leftover in leftovers { try? FileManager.default.removeItem(atPath: vault.directory.file(leftover)) }
        }
    }

    @Test("a flipped byte anywhere in the vault: refused, and nothing written")
    func flippedBytes() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", VaultCommandTests.github]).status == 0)
        let original = try #require(vault.vaultBytes)
        func damaged(at position: Int) throws -> (path: String, bytes: Data) {
            var bytes = original
            bytes[position] ^= 0xFF
            let path = vault.directory.file("damaged-\(position).json")
            try bytes.write(to: URL(fileURLWithPath: path))
            return (path, bytes)
        }
        // Every position through the library `totp add` runs, in this process: the change is
        // refused before anything is written. (A process a position took a minute of both cores.)
        let keyFile = try VaultKeyFile.load(path: vault.keyFile)
        let credential: Vault.CredentialSource = { .keyFile(keyFile) }
        for position in 0..<original.count {
            let (path, bytes) = try damaged(at: position)
            #expect(throws: VaultError.self, "byte \(position)") {
                try Vault(path: path).update(credential: credential) { (_: inout VaultContent) throws(VaultError) in }
            }
            #expect(FileManager.default.contents(atPath: path) == bytes, "byte \(position): the damaged vault was rewritten")
        }
        // Positions across the whole file through the command itself, one shell for all of them:
        // it exits non-zero and writes nothing.
        let totp = try ProcessRunner.shellQuoted(TOTPProcess.executable())
        let sample = Array(stride(from: 0, to: original.count, by: max(1, original.count / 24))) + [original.count - 1]
        var script = "set -u\nfailures=0\n"
        for position in sample {
            let path = try damaged(at: position).path
            script +=
                "\(totp) add --vault \(path) \(ProcessRunner.shellQuoted(VaultCommandTests.gitlab)) >/dev/null 2>&1 && { echo accepted \(position); failures=1; }\n"
        }
        script += "exit $failures\n"
        let run = try await ProcessRunner.run("/bin/sh", input: script, environment: vault.keyFileEnvironment)
        #expect(run.status == 0, "accepted a damaged vault: \(run.stdout)")
        for position in sample {
            var bytes = original
            bytes[position] ^= 0xFF
            #expect(FileManager.default.contents(atPath: vault.directory.file("damaged-\(position).json")) == bytes, "byte \(position)")
        }
    }

    @Test("a truncated vault and one from a newer version: each its own error (65), and nothing written")
    func truncatedAndNewer() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["add", VaultCommandTests.github]).status == 0)
        let original = try #require(vault.vaultBytes)

        let truncated = original.prefix(original.count / 2)
        FileManager.default.createFile(atPath: vault.vaultPath, contents: truncated, attributes: [.posixPermissions: 0o600])
        let cut = try await vault.run(["add", VaultCommandTests.gitlab])
        #expect(cut.status == 65, "\(cut)")
        #expect(cut.stderr.hasPrefix("totp add: the vault file is malformed"), "\(cut)")
        #expect(vault.vaultBytes == truncated)

        let newer = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"version\":1", with: "\"version\":2").utf8)
        #expect(newer != original)
        FileManager.default.createFile(atPath: vault.vaultPath, contents: newer, attributes: [.posixPermissions: 0o600])
        let future = try await vault.run(["add", VaultCommandTests.gitlab])
        #expect(future.status == 65, "\(future)")
        #expect(future.stderr == "totp add: the vault file has version 2; this version of totp reads up to 1: upgrade totp\n")
        #expect(vault.vaultBytes == newer)
    }
}
