import Foundation
import OTPImport
import OTPURI
import Testing

@Suite("What the importers skip, refuse and detect")
struct ImporterBehaviourTests {
    /// A secret no message may contain.
    static let secret = "JBSWY3DPEHPK3PXP"

    private func importing(_ text: String, as format: ImportFormat? = nil) throws(ImportError) -> ImportResult {
        try Importer.importAccounts(from: Data(text.utf8), format: format)
    }

    private func aegis(entries: String, vaultVersion: Int = 1, dbVersion: Int = 3) -> String {
        #"{"version": \#(vaultVersion), "header": {"slots": null, "params": null}, "db": {"version": \#(dbVersion), "entries": [\#(entries)]}}"#
    }

    private func aegisEntry(type: String, issuer: String = "Example", name: String = "alice", secret: String = secret, algo: String = "SHA1")
        -> String
    {
        #"{"type": "\#(type)", "name": "\#(name)", "issuer": "\#(issuer)", "info": {"secret": "\#(secret)", "algo": "\#(algo)", "digits": 6, "period": 30}}"#
    }

    @Test("a URI list skips blank and # lines, reports a bad line by its number and imports the rest")
    func uriListBadLine() throws {
        let text = "# exported\n\notpauth://totp/A:b?secret=\(Self.secret)\r\nnot a uri\r\n  otpauth://hotp/C:d?secret=\(Self.secret)&counter=3  \n"
        let result = try importing(text)
        #expect(result.accounts.map(\.accountName) == ["b", "d"])
        #expect(result.accounts.last?.counter == 3)
        #expect(result.skipped == [SkippedEntry(position: .line(4), label: nil, reason: .invalidURI(.invalidScheme))])
        #expect(result.skipped.first?.description.hasPrefix("line 4: not an otpauth:// URI") == true)
    }

    @Test("Steam and mOTP URIs are skipped by name, never read as TOTP")
    func uriListSteamAndMOTP() throws {
        let text = "otpauth://steam/Valve:gabe?secret=\(Self.secret)&digits=5\notpauth://motp/Old%20Co:bob?secret=\(Self.secret)\n"
        let result = try importing(text, as: .uriList)
        #expect(result.accounts.isEmpty)
        #expect(
            result.skipped == [
                SkippedEntry(position: .line(1), label: "Valve:gabe", reason: .steam),
                SkippedEntry(position: .line(2), label: "Old Co:bob", reason: .mOTP),
            ]
        )
    }

    @Test("Aegis entries of other types, algorithms or bad secrets are skipped with why, the rest imported")
    func aegisSkips() throws {
        let entries = [
            aegisEntry(type: "totp", name: "kept"),
            aegisEntry(type: "motp"),
            aegisEntry(type: "yandex"),
            aegisEntry(type: "totp", algo: "MD5"),
            aegisEntry(type: "totp", secret: "JBSWY3DP!HPK3PXP"),
        ]
        let result = try importing(aegis(entries: entries.joined(separator: ",")))
        #expect(result.accounts.map(\.accountName) == ["kept"])
        #expect(result.skipped.map(\.position) == [.entry(2), .entry(3), .entry(4), .entry(5)])
        #expect(result.skipped.map(\.label) == Array(repeating: "Example:alice", count: 4))
        #expect(result.skipped[0].reason == .mOTP)
        #expect(result.skipped[1].reason == .unsupportedType("yandex"))
        #expect(result.skipped[2].reason == .unsupportedAlgorithm("MD5"))
        guard case .invalidEntry = result.skipped[3].reason else {
            Issue.record("a bad secret is an invalid entry: \(result.skipped[3].reason)")
            return
        }
        for skipped in result.skipped {
            #expect(!skipped.description.contains("JBSWY3DP"))
        }
    }

    @Test("newer Aegis vault and database versions and 2FAS schemas are refused by number")
    func unsupportedVersions() {
        #expect(throws: ImportError.unsupportedVersion(.aegis, version: 2)) {
            try importing(aegis(entries: "", vaultVersion: 2))
        }
        #expect(throws: ImportError.unsupportedVersion(.aegis, version: 4)) {
            try importing(aegis(entries: "", dbVersion: 4))
        }
        #expect(throws: ImportError.unsupportedVersion(.twoFAS, version: 5)) {
            try importing(#"{"services": [], "schemaVersion": 5}"#)
        }
    }

    @Test("old andOTP labels 'Issuer - Account' are split; padded secrets accepted")
    func andOTPOldLabel() throws {
        let text =
            #"[{"secret": "4SJHB4GSD43FZBAI7C2HLRJGPQ======", "label": "Deno - Mason", "digits": 6, "type": "TOTP", "algorithm": "SHA1", "period": 30}]"#
        let account = try #require(try importing(text).accounts.first)
        #expect(account.issuer == "Deno")
        #expect(account.accountName == "Mason")
        #expect(account.secret.base32 == "4SJHB4GSD43FZBAI7C2HLRJGPQ")
    }

    @Test("a malformed export names the place, never the values")
    func malformedMessage() throws {
        let text = #"{"schemaVersion": 4, "services": [{"name": "X", "secret": "\#(Self.secret)", "otp": {"digits": "six"}}]}"#
        do {
            _ = try importing(text)
            Issue.record("a string for digits must be refused")
        } catch {
            guard case .malformed(.twoFAS, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reason.contains("services[0].otp.digits"))
            #expect(!error.description.contains(Self.secret))
            #expect(!error.description.contains("\n"))
        }
        #expect(throws: ImportError.malformed(.aegis, reason: "the file is not valid JSON")) {
            try importing(#"{"version": 1, "db": "#, as: .aegis)
        }
    }

    @Test("detection: by content, and anything else is unrecognized")
    func detection() throws {
        #expect(try ImportFormat.detect(Data("\n# mine\notpauth://totp/a?secret=\(Self.secret)".utf8)) == .uriList)
        #expect(try ImportFormat.detect(Data("\u{FEFF}[]".utf8)) == .andOTP)
        #expect(try ImportFormat.detect(Data(#"{"servicesEncrypted": "x"}"#.utf8)) == .twoFAS)
        #expect(try ImportFormat.detect(Data(#"{"header": {}}"#.utf8)) == .aegis)
        for text in ["hello", "{}", "", #"{"other": 1}"#, "otpauthmigration://offline?data=AA"] {
            #expect(throws: ImportError.unrecognizedFormat, "\(text)") { try ImportFormat.detect(Data(text.utf8)) }
        }
        #expect(throws: ImportError.unrecognizedFormat) { try ImportFormat.detect(Data([0xFF, 0x00, 0x12])) }
    }
}
