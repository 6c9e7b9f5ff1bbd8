import Foundation
import OTPImport
import OTPTestUtilities
import OTPURI
import OTPVault
import Testing

@Suite("Importing the sample exports of other authenticators")
struct SampleImportTests {
    /// The plain samples, each of which must import to exactly the accounts of its expected file.
    static let plainSamples = [
        "aegis/aegis_plain.json",
        "aegis/aegis_plain_grouped_v2.json",
        "andotp/andotp_plain.json",
        "2fas/2fas_authenticator.json",
        "2fas/2fas_authenticator_plain.2fas",
        "2fas/2fas_authenticator_plain_v3.2fas",
        "2fas/2fas_authenticator_plain_v4.2fas",
        "uri-list/plain.txt",
        "uri-list/ente_auth.txt",
        "uri-list/url_list_output.txt",
    ]

    /// The encrypted samples, with the format each is, and whether detection recognizes it: an
    /// encrypted andOTP backup is bytes without magic, read only when andOTP is chosen.
    static let encryptedSamples: [(sample: String, format: ImportFormat, detectable: Bool)] = [
        ("aegis/aegis_encrypted.json", .aegis, true),
        ("2fas/2fas_authenticator_encrypted.2fas", .twoFAS, true),
        ("2fas/2fas_authenticator_encrypted_v3.2fas", .twoFAS, true),
        ("2fas/2fas_authenticator_encrypted_v4.2fas", .twoFAS, true),
        ("andotp/andotp_encrypted.bin", .andOTP, false),
        ("andotp/andotp_encrypted_old.bin", .andOTP, false),
    ]

    @Test("a plain sample imports to exactly its expected accounts; Steam is skipped", arguments: plainSamples)
    func plainSample(_ sample: String) throws {
        try Self.check(try Importer.importAccounts(from: try ImporterSamples.data(sample)), against: sample)
    }

    static func check(_ result: ImportResult, against sample: String) throws {
        let expected = try ExpectedAccounts.load(for: sample)
        let expectedSteam = expected.accounts.filter { $0.type == "steam" }
        let expectedAccounts = expected.accounts.filter { $0.type != "steam" }.map(\.key).sorted()
        #expect(result.accounts.map(AccountKey.init).sorted() == expectedAccounts, "\(sample)")
        #expect(result.skipped.map(\.reason) == Array(repeating: SkipReason.steam, count: expectedSteam.count), "\(sample)")
        for (skipped, steam) in zip(result.skipped, expectedSteam) {
            #expect(skipped.label == "\(steam.issuer):\(steam.name)")
        }
    }

    @Test("the detected format of a plain sample is its folder's")
    func detectedFormats() throws {
        let formats: [String: ImportFormat] = ["aegis": .aegis, "andotp": .andOTP, "2fas": .twoFAS, "uri-list": .uriList]
        for sample in Self.plainSamples {
            let folder = String(sample.prefix { $0 != "/" })
            #expect(try ImportFormat.detect(try ImporterSamples.data(sample)) == formats[folder], "\(sample)")
        }
    }

    static func password(_ text: String) -> VaultPassphrase { VaultPassphrase(utf8: Array(text.utf8)) }

    @Test("an encrypted sample imports with its password to exactly its expected accounts", arguments: encryptedSamples.map(\.sample))
    func encryptedSample(_ sample: String) throws {
        let (_, format, detectable) = try #require(Self.encryptedSamples.first { $0.sample == sample })
        let data = try ImporterSamples.data(sample)
        try Self.check(try Importer.importAccounts(from: data, format: format, password: Self.password("test")), against: sample)
        if detectable {
            try Self.check(try Importer.importAccounts(from: data, password: Self.password("test")), against: sample)
        } else {
            #expect(throws: ImportError.unrecognizedFormat) { try ImportFormat.detect(data) }
        }
    }

    @Test("an encrypted sample without a password asks for one; a wrong password is refused as such", arguments: encryptedSamples.map(\.sample))
    func encryptedSampleRefused(_ sample: String) throws {
        let (_, format, _) = try #require(Self.encryptedSamples.first { $0.sample == sample })
        let data = try ImporterSamples.data(sample)
        let missing = #expect(throws: ImportError.passwordRequired(format)) { try Importer.importAccounts(from: data, format: format) }
        #expect(missing?.description == "the \(format) is encrypted: give its password (--password-file)")
        let wrong = #expect(throws: ImportError.wrongPassword(format)) {
            try Importer.importAccounts(from: data, format: format, password: Self.password("Test"))
        }
        #expect(wrong?.description == "the password does not decrypt this \(format): check it")
    }

    @Test("a damaged encrypted Aegis vault or 2FAS backup is told apart from a wrong password")
    func damaged() throws {
        func flipped(_ base64: String, at index: Int) -> String {
            var bytes = Data(base64Encoded: base64)!
            bytes[index] ^= 1
            return bytes.base64EncodedString()
        }
        var aegis = try JSONSerialization.jsonObject(with: try ImporterSamples.data("aegis/aegis_encrypted.json")) as! [String: Any]
        aegis["db"] = flipped(aegis["db"] as! String, at: 10)
        #expect(throws: ImportError.damaged(.aegis)) {
            try Importer.importAccounts(from: try JSONSerialization.data(withJSONObject: aegis), password: Self.password("test"))
        }
        var twoFAS = try JSONSerialization.jsonObject(with: try ImporterSamples.data("2fas/2fas_authenticator_encrypted_v4.2fas")) as! [String: Any]
        var parts = (twoFAS["servicesEncrypted"] as! String).split(separator: ":").map(String.init)
        parts[0] = flipped(parts[0], at: 5)
        twoFAS["servicesEncrypted"] = parts.joined(separator: ":")
        let error = #expect(throws: ImportError.damaged(.twoFAS)) {
            try Importer.importAccounts(from: try JSONSerialization.data(withJSONObject: twoFAS), password: Self.password("test"))
        }
        #expect(error?.description.contains("damaged") == true)
        let truncated = Data(try ImporterSamples.data("andotp/andotp_encrypted.bin").prefix(20))
        #expect(throws: ImportError.malformed(.andOTP, reason: "the file is too short to be an encrypted backup")) {
            try Importer.importAccounts(from: truncated, format: .andOTP, password: Self.password("test"))
        }
    }

    /// New samples must be given a place in this suite, so none goes untested by being forgotten.
    @Test("every sample of the plain formats' folders is tested")
    func everySampleIsCovered() throws {
        var covered = Set(Self.plainSamples)
        covered.formUnion(Self.encryptedSamples.map(\.sample))
        for folder in ["aegis", "andotp", "2fas", "uri-list"] {
            for name in try ImporterSamples.sampleNames(in: folder) {
                #expect(covered.contains("\(folder)/\(name)"), "\(folder)/\(name) is in no test")
            }
        }
    }
}
