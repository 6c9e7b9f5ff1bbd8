import Foundation
import OTPImport
import OTPTestUtilities
import OTPURI
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
        let expected = try ExpectedAccounts.load(for: sample)
        let result = try Importer.importAccounts(from: try ImporterSamples.data(sample))

        let expectedSteam = expected.accounts.filter { $0.type == "steam" }
        let expectedAccounts = expected.accounts.filter { $0.type != "steam" }.map(\.key).sorted()
        #expect(result.accounts.map(AccountKey.init).sorted() == expectedAccounts)
        #expect(result.skipped.map(\.reason) == Array(repeating: SkipReason.steam, count: expectedSteam.count))
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

    @Test("an encrypted sample is refused as encrypted, not supported yet", arguments: encryptedSamples.map(\.sample))
    func encryptedSample(_ sample: String) throws {
        let (_, format, detectable) = try #require(Self.encryptedSamples.first { $0.sample == sample })
        let data = try ImporterSamples.data(sample)
        #expect(throws: ImportError.encryptedNotSupported(format)) { try Importer.importAccounts(from: data, format: format) }
        if detectable {
            #expect(throws: ImportError.encryptedNotSupported(format)) { try Importer.importAccounts(from: data) }
        } else {
            #expect(throws: ImportError.unrecognizedFormat) { try ImportFormat.detect(data) }
        }
        #expect(ImportError.encryptedNotSupported(format).description.contains("not supported yet"))
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
