import Foundation
import OTPCore
@testable import OTPImport
import OTPTestUtilities
import OTPURI
import Testing

@Suite("Exporting Google Authenticator migration URIs")
struct GoogleMigrationExportTests {
    @Test("25 accounts: 3 URIs of 10, 10 and 5 under one batch id, importing back to the same accounts")
    func roundTrip() throws {
        let accounts = GoogleMigrationImportTests.accounts(25)
        let export = try GoogleMigrationExport(accounts: accounts)
        #expect(export.uris.count == 3)
        #expect(export.skipped.isEmpty)
        let result = try Importer.importGoogleMigration(uris: export.uris)
        #expect(result.accounts == accounts)
        #expect(result.migrationCodes.map(\.accountCount) == [10, 10, 5])
        #expect(result.migrationCodes.map(\.batchID) == Array(repeating: export.batchID, count: 3))
        #expect(result.migrationCodes.map(\.batchSize) == [3, 3, 3])
        #expect(result.migrationCodes.map(\.batchIndex) == [0, 1, 2])
        #expect(result.migrationCodes.map(\.version) == [1, 1, 1])
        #expect(result.skipped.isEmpty && result.missingBatchParts.isEmpty)
        // The text file form reads the same.
        let text = "# exported by OTPKit\n" + export.uris.joined(separator: "\n") + "\n"
        #expect(try Importer.importAccounts(from: Data(text.utf8)).accounts == accounts)
    }

    @Test("the Base64 is percent-encoded: no raw '+', '/' or '=' in the query")
    func escaping() throws {
        // Enough accounts that the Base64 surely holds each of the three characters somewhere.
        let export = try GoogleMigrationExport(accounts: GoogleMigrationImportTests.accounts(30))
        let data = export.uris.map { $0.dropFirst("otpauth-migration://offline?data=".count) }.joined()
        #expect(export.uris.allSatisfy { $0.hasPrefix("otpauth-migration://offline?data=") })
        #expect(!data.contains("+") && !data.contains("/") && !data.contains("="))
        #expect(data.contains("%2B") && data.contains("%2F") && data.contains("%3D"))
    }

    @Test("batch ids are random")
    func randomBatchIDs() throws {
        let ids = try (0..<8).map { _ in try GoogleMigrationExport(accounts: GoogleMigrationImportTests.accounts(1)).batchID }
        #expect(Set(ids).count > 1)
    }

    @Test("accounts the format cannot carry are skipped with why; the others exported; no secret in a message")
    func unrepresentable() throws {
        let secret = try OTPSecret(base32: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")
        let kept = try OTPAuthURI(issuer: "Kept", accountName: "a", secret: secret)
        let accounts = [
            kept,
            try OTPAuthURI(issuer: "Slow", accountName: "b", secret: secret, period: 60),
            try OTPAuthURI(issuer: "Seven", accountName: "c", secret: secret, digits: 7),
            try OTPAuthURI(issuer: "Valve", accountName: "d", secret: secret, additionalParameters: [.init(name: "encoder", value: "steam")]),
            try OTPAuthURI(kind: .hotp, issuer: "Counter", accountName: "e", secret: secret, period: 60, counter: 5),
        ]
        let export = try GoogleMigrationExport(accounts: accounts)
        #expect(export.skipped.map(\.position) == [.entry(2), .entry(3), .entry(4)])
        #expect(export.skipped.map(\.label) == ["Slow:b", "Seven:c", "Valve:d"])
        #expect(export.skipped[2].reason == .steam)
        #expect(
            export.skipped[0].description
                == "entry 2 (Slow:b): not exportable to Google Authenticator: a period of 60 seconds: Google Authenticator exports carry 30 seconds only"
        )
        #expect(export.skipped[1].description.contains("7 digits"))
        for skipped in export.skipped {
            #expect(!skipped.description.contains("JBSWY3DP"))
        }
        // An HOTP account's period means nothing, so it does not stop the export.
        let imported = try Importer.importGoogleMigration(uris: export.uris).accounts
        #expect(imported.map(\.issuer) == ["Kept", "Counter"])
        #expect(imported.last?.counter == 5)
        #expect(try GoogleMigrationExport(accounts: Array(accounts[1...3])).uris.isEmpty)
    }

    @Test("unknown enums, MD5, empty and short secrets are skipped by entry, named, without the secret")
    func skippedPayloadEntries() throws {
        var entries: [MigrationAccountMapping.Parameters] = []
        func entry(_ name: String, _ change: (inout MigrationAccountMapping.Parameters) -> Void) {
            var parameters = MigrationAccountMapping.Parameters()
            parameters.secret = Data("0123456789abcdefghij".utf8)
            parameters.name = name
            parameters.issuer = "Example"
            change(&parameters)
            entries.append(parameters)
        }
        entry("fine") { _ in }
        entry("md5") { $0.algorithm = .md5 }
        entry("algorithm9") { $0.algorithm = .UNRECOGNIZED(9) }
        entry("digits7") { $0.digits = .UNRECOGNIZED(7) }
        entry("type5") { $0.type = .UNRECOGNIZED(5) }
        entry("empty") { $0.secret = Data() }
        entry("short") { $0.secret = Data("0123".utf8) }
        entry("negative") {
            $0.type = .hotp
            $0.counter = -1
        }
        entry("alice") {
            $0.issuer = ""
            $0.name = "Work: alice"
        }
        var payload = MigrationURICoding.Payload()
        payload.otpParameters = entries
        let result = try Importer.importGoogleMigration(uris: [MigrationURICoding.uri(for: payload)])
        #expect(result.accounts.map(\.accountName) == ["fine", "alice"])
        #expect(result.accounts.last?.issuer == "Work")
        #expect(result.skipped.map(\.label) == ["md5", "algorithm9", "digits7", "type5", "empty", "short", "negative"].map { "Example:\($0)" })
        #expect(result.skipped.allSatisfy { $0.position == .entry(1) })
        #expect(result.skipped[0].reason == .unsupportedAlgorithm("MD5"))
        #expect(result.skipped[3].reason == .unsupportedType("number 5"))
        for skipped in result.skipped {
            #expect(!skipped.description.contains("0123"), "\(skipped)")
        }
        // Defaults: UNSPECIFIED algorithm, digits and type are SHA1, 6 and TOTP, period 30.
        let fine = try #require(result.accounts.first)
        #expect(fine.kind == .totp && fine.algorithm == .sha1 && fine.digits == 6 && fine.period == 30)
        // The issuer's name is kept in the account name when the payload repeats it.
        var repeated = MigrationURICoding.Payload()
        repeated.otpParameters = [entries[0]]
        repeated.otpParameters[0].name = "Example:bob"
        #expect(try Importer.importGoogleMigration(uris: [MigrationURICoding.uri(for: repeated)]).accounts.first?.accountName == "Example:bob")
    }
}
