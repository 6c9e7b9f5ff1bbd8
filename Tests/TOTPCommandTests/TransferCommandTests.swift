import Foundation
import OTPTestUtilities
import Testing

/// `totp import` and `totp export` (run by totp-transfer) on real exports of other apps, and the
/// exports checked with tools nobody here wrote: Python `cryptography` and zbarimg.
@Suite("totp import and export")
struct TransferCommandTests {
    /// The accounts of the vault as `issuer:account` labels, in order.
    static func labels(_ vault: VaultFixture, path: String? = nil) async throws -> [String] {
        let list = try await vault.run(["list", "--json"] + (path.map { ["--vault", $0] } ?? []))
        try #require(list.status == 0, "\(list)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        return objects.map { object in
            let issuer = object["issuer"] as? String
            let account = object["account"] as? String ?? ""
            return issuer.map { "\($0):\(account)" } ?? account
        }
    }

    static let sevenVectorsWithoutSteam = ["Deno:Mason", "SPDX:James", "Airbnb:Elijah", "Issuu:James", "Air Canada:Benjamin", "WWE:Mason"]

    @Test("an encrypted Aegis export imports with its password file; Steam is reported as skipped; again, all are duplicates")
    func encryptedAegis() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let password = vault.directory.file("password")
        try "test\n".write(toFile: password, atomically: true, encoding: .utf8)
        let sample = ImporterSamples.url("aegis/aegis_encrypted.json").path
        let run = try await vault.run(["import", sample, "--password-file", password])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("skipped \(sample) entry 7 (Boeing:Sophia): Steam Guard codes are not supported\n"))
        #expect(run.stdout.hasSuffix("6 added, 0 already there, 1 skipped\n"))
        #expect(try await Self.labels(vault) == Self.sevenVectorsWithoutSteam)
        let again = try await vault.run(["import", sample, "--password-file", password, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect((object["added"] as? [String])?.isEmpty == true)
        #expect((object["duplicates"] as? [String]) == Self.sevenVectorsWithoutSteam)
    }

    @Test("a wrong export password exits 77 and creates no vault")
    func wrongPassword() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let password = vault.directory.file("password")
        try "wrong\n".write(toFile: password, atomically: true, encoding: .utf8)
        for sample in ["aegis/aegis_encrypted.json", "2fas/2fas_authenticator_encrypted_v4.2fas"] {
            let run = try await vault.run(["import", ImporterSamples.url(sample).path, "--password-file", password])
            #expect(run.status == 77, "\(run)")
            #expect(run.stderr.contains("the password does not decrypt"), "\(run)")
        }
        #expect(vault.vaultBytes == nil)
    }

    @Test("an endless stream or a missing file is one line on standard error, exit 65 or 66, no vault")
    func boundedFiles() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        for (file, status, says) in [
            ("/dev/zero", Int32(65), "/dev/zero is larger than 64 MiB, which no export is: give the export file"),
            (vault.directory.file("missing.json"), 66, "cannot read \(vault.directory.file("missing.json")): No such file or directory"),
        ] {
            for command in [["import", file], ["add", "--qr", file]] {
                let run = try await vault.run(command)
                #expect(run.status == status, "\(command): \(run)")
                #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(file), "\(command): \(run.stderr)")
                if command[0] == "import" { #expect(run.stderr.contains(says), "\(run.stderr)") }
            }
        }
        #expect(vault.vaultBytes == nil)
    }

    @Test("a Google Authenticator QR image imports; images without an OTP code fail and change nothing")
    func qrImages() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        let image = ImporterSamples.url("qr-image/test_googleauth_export.png").path
        let run = try await vault.run(["add", "--qr", image])
        #expect(run.status == 0, "\(run)")
        #expect(try await Self.labels(vault).count == 3)
        let before = vault.vaultBytes
        for negative in ["qr-image/not_a_qr_code.jpg", "qr-image/qr_but_without_otp.png"] {
            let failed = try await vault.run(["import", ImporterSamples.url(negative).path])
            #expect(failed.status == 65, "\(failed)")
            #expect(vault.vaultBytes == before)
        }
    }

    @Test("an Aegis export opens with Python's cryptography as Aegis documents it, and re-imports to the same accounts")
    func aegisExport() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["import", ImporterSamples.url("aegis/aegis_plain.json").path]).status == 0)
        let password = vault.directory.file("password")
        try "export pässword\n".write(toFile: password, atomically: true, encoding: .utf8)
        let exported = vault.directory.file("export.json")
        let run = try await vault.run(["export", "--format", "aegis", "--password-file", password, "--output", exported])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("warning: the output holds the secrets of 6 accounts"))
        let attributes = try FileManager.default.attributesOfItem(atPath: exported)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let content = try await AegisReferenceDecryption.decrypt(path: exported, kind: "password", secret: "export pässword")
        let database = try #require(try JSONSerialization.jsonObject(with: Data(content)) as? [String: Any])
        let entries = try #require(database["entries"] as? [[String: Any]])
        #expect(entries.map { "\($0["issuer"] as? String ?? ""):\($0["name"] as? String ?? "")" } == Self.sevenVectorsWithoutSteam)
        #expect((entries[0]["info"] as? [String: Any])?["secret"] as? String == "4SJHB4GSD43FZBAI7C2HLRJGPQ")

        let other = vault.directory.file("other.json")
        let reimported = try await vault.run(["import", "--vault", other, exported, "--password-file", password])
        #expect(reimported.status == 0, "\(reimported)")
        #expect(try await Self.labels(vault, path: other) == Self.sevenVectorsWithoutSteam)
        let again = try await vault.run(["export", "--format", "aegis", "--password-file", password, "--output", exported])
        #expect(again.status == 73, "an export never overwrites a file: \(again)")
    }

    @Test("google-qr PNGs decode with zbarimg to migration URIs that re-import to the same accounts")
    func googleQRExport() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        // 25 accounts: three codes of 10, 10 and 5.
        let uris = (0..<25).map { "otpauth://totp/Many:user\($0)?secret=JBSWY3DPEHPK3PXP&issuer=Many" }.joined(separator: "\n")
        #expect(try await vault.run(["add", "-"], input: uris).status == 0)
        let prefix = vault.directory.file("ga")
        let run = try await vault.run(["export", "--format", "google-qr", "--output", prefix, "--json"])
        #expect(run.status == 0, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["files"] as? [String] == (1...3).map { "\(prefix)-\($0).png" })

        var lines: [String] = []
        for index in 1...3 {
            let decoded = try await ProcessRunner.run(ExternalTool.zbarimg.path(), ["-q", "--raw", "-Sbinary", "\(prefix)-\(index).png"])
            #expect(decoded.status == 0, "\(decoded)")
            lines.append(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(lines.allSatisfy { $0.hasPrefix("otpauth-migration://offline?data=") })
        let text = vault.directory.file("scanned.txt")
        try lines.joined(separator: "\n").write(toFile: text, atomically: true, encoding: .utf8)
        let other = vault.directory.file("other.json")
        let reimported = try await vault.run(["import", "--vault", other, text])
        #expect(reimported.status == 0, "\(reimported)")
        #expect(reimported.stdout.hasSuffix("25 added, 0 already there, 0 skipped\n"), "\(reimported)\nscanned: \(lines)")
        #expect(try await Self.labels(vault, path: other) == (0..<25).map { "Many:user\($0)" }, "\(reimported)\nscanned: \(lines)")
    }

    @Test("a URI list export re-imports to the same accounts and codes")
    func uriListExport() async throws {
        let vault = try VaultFixture()
        defer { vault.remove() }
        #expect(try await vault.run(["import", ImporterSamples.url("uri-list/plain.txt").path]).status == 0)
        let exported = vault.directory.file("uris.txt")
        #expect(try await vault.run(["export", "--format", "uri-list", "--output", exported]).status == 0)
        let other = vault.directory.file("other.json")
        #expect(try await vault.run(["import", "--vault", other, exported]).status == 0)
        #expect(try await Self.labels(vault, path: other) == (try await Self.labels(vault)))
        let first = try await vault.run(["code", "deno", "--time", "0"])
        let second = try await vault.run(["code", "deno", "--time", "0", "--vault", other])
        #expect(first.stdout == second.stdout && first.status == 0)
    }
}
