import Foundation
import OTPCore
import OTPImport
import OTPTestUtilities
import OTPURI
import Testing

@Suite("Importing Google Authenticator migration URIs")
struct GoogleMigrationImportTests {
    static let samples = [
        "google-migration/example_export.txt",
        "google-migration/example_export_only_totp.txt",
        "google-migration/test_plus_problem_export.txt",
    ]

    /// The GA-only parts of a sample's expected.json (README.md of the samples, "expected.json schema").
    struct ExpectedMigration: Decodable {
        let batches: [Batch]?
        let nameMayStripIssuerPrefix: Bool?

        struct Batch: Decodable, Equatable {
            let version: Int
            let batchSize: Int
            let batchIndex: Int
            let batchID: Int32

            enum CodingKeys: String, CodingKey {
                case version
                case batchSize = "batch_size"
                case batchIndex = "batch_index"
                case batchID = "batch_id"
            }
        }

        enum CodingKeys: String, CodingKey {
            case batches
            case nameMayStripIssuerPrefix = "name_may_strip_issuer_prefix"
        }
    }

    /// The sample's expected account as OTPImport reads it. Two documented choices: a name that
    /// repeats the issuer is kept raw (the sample's `name`; `name_may_strip_issuer_prefix` would
    /// allow either), and a name with a colon but no issuer is split into issuer and account, as
    /// AUTHENTICATOR-FORMATS.md §2.1 (Aegis) says. scito's expected output, which the sample's
    /// expected.json follows, keeps that name whole; the URI-list sample of the same account
    /// (url_list_output.txt) reads it split, and so does this importer, so both imports agree.
    static func asImported(_ account: ExpectedAccounts.Account) -> AccountKey {
        let key = account.key
        guard key.issuer.isEmpty, let colon = key.name.firstIndex(of: ":") else { return key }
        return AccountKey(
            type: key.type, issuer: String(key.name[..<colon]),
            name: String(key.name[key.name.index(after: colon)...].drop { $0 == " " }), secret: key.secret,
            algorithm: key.algorithm, digits: key.digits, period: key.period, counter: key.counter)
    }

    @Test("a sample imports to exactly its expected accounts and batches", arguments: samples)
    func sample(_ sample: String) throws {
        let expected = try ExpectedAccounts.load(for: sample)
        let migration: ExpectedMigration = try ImporterSamples.decode(from: sample + ".expected.json")
        let data = try ImporterSamples.data(sample)
        #expect(try ImportFormat.detect(data) == .googleAuthenticator)

        let result = try Importer.importAccounts(from: data)
        // Order too: every sample keeps the file's order.
        #expect(result.accounts.map(AccountKey.init) == expected.accounts.map(Self.asImported))
        #expect(result.skipped.isEmpty, "\(result.skipped)")
        #expect(result.missingBatchParts.isEmpty)
        if let batches = migration.batches {
            let read = result.migrationCodes.map {
                ExpectedMigration.Batch(version: $0.version, batchSize: $0.batchSize, batchIndex: $0.batchIndex, batchID: $0.batchID)
            }
            #expect(read == batches)
        }
        #expect(result.migrationCodes.map(\.accountCount).reduce(0, +) == expected.accounts.count)
    }

    @Test("the sample with raw '+' also imports when a form decoder turned them into spaces")
    func plusAsSpace() throws {
        let text = String(decoding: try ImporterSamples.data("google-migration/test_plus_problem_export.txt"), as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("otpauth-migration://") })
        #expect(line.contains("+"))
        let spaced = line.replacingOccurrences(of: "+", with: " ")
        let expected = try ExpectedAccounts.load(for: "google-migration/test_plus_problem_export.txt")
        let result = try Importer.importGoogleMigration(uris: [line.description, spaced])
        // The same code twice, however it was mangled, counts once.
        #expect(result.accounts.map(AccountKey.init) == expected.accounts.map(\.key))
        #expect(result.migrationCodes.count == 1)
    }

    @Test("every file of the google-migration folder is tested")
    func everySampleIsCovered() throws {
        // scito's expected output for its sample, not a sample (the samples' README.md).
        let names = try ImporterSamples.sampleNames(in: "google-migration").filter { $0 != "example_output.json" }
        #expect(names.map { "google-migration/\($0)" } == Self.samples.sorted())
    }

    @Test("a garbage line is reported with its number and the other lines imported")
    func garbageLine() throws {
        let text = try Self.exportText(accounts: 2)
        let lines = text.split(separator: "\n").map(String.init)
        let mixed = (["# from my phone", lines[0], "hello world", "", "otpauth-migration://offline?data=%%%", lines[1]]).joined(separator: "\n")
        let result = try Importer.importAccounts(from: Data(mixed.utf8))
        #expect(result.accounts.map(\.accountName) == ["user0@example.com", "user1@example.com"])
        #expect(
            result.skipped == [
                SkippedEntry(position: .line(3), label: nil, reason: .invalidMigrationURI(.notMigrationURI)),
                SkippedEntry(position: .line(5), label: nil, reason: .invalidMigrationURI(.invalidPercentEncoding)),
            ])
        #expect(result.skipped[0].description.hasPrefix("line 3: not an otpauth-migration://offline URI"))
    }

    @Test("each kind of bad URI is told apart")
    func badURIs() throws {
        let cases: [(String, MigrationURIError)] = [
            ("otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP", .notMigrationURI),
            ("otpauth-migration://online?data=AA%3D%3D", .notMigrationURI),
            ("otpauth-migration://offline?version=1", .missingData),
            ("otpauth-migration://offline?data=%2", .invalidPercentEncoding),
            ("otpauth-migration://offline?data=!!!!", .invalidBase64),
            // One byte 0x00: field number 0, which no protobuf message has.
            ("otpauth-migration://offline?data=AA%3D%3D", .invalidPayload),
            // Field 2 (version) = 1 and nothing else.
            ("otpauth-migration://offline?data=EAE%3D", .noAccounts),
        ]
        for (uri, error) in cases {
            let result = try Importer.importGoogleMigration(uris: [uri, try Self.exportURIs(accounts: 1)[0]])
            #expect(result.skipped == [SkippedEntry(position: .entry(1), label: nil, reason: .invalidMigrationURI(error))], "\(uri)")
            #expect(result.accounts.count == 1)
        }
    }

    @Test("a file with no readable migration URI is refused as a whole")
    func nothingReadable() {
        let text = "otpauth-migration://offline?data=%2\n# comment\notpauth-migration://offline\n"
        #expect(
            throws: ImportError.malformed(
                .googleAuthenticator,
                reason: "no line is a readable otpauth-migration:// URI (line 1: \(MigrationURIError.invalidPercentEncoding))")
        ) {
            try Importer.importAccounts(from: Data(text.utf8))
        }
        #expect(throws: ImportError.self) { try Importer.importGoogleMigration(uris: []) }
        #expect(throws: ImportError.self) { try Importer.importGoogleMigration(uris: ["hello"]) }
        #expect(throws: ImportError.self) { try Importer.importAccounts(from: Data("hello".utf8), format: .googleAuthenticator) }
    }

    @Test("a code given twice counts once")
    func duplicateCode() throws {
        let uris = try Self.exportURIs(accounts: 25)
        let result = try Importer.importGoogleMigration(uris: [uris[0], uris[1], uris[0], uris[2], uris[1]])
        #expect(result.accounts.count == 25)
        #expect(result.migrationCodes.map(\.batchIndex) == [0, 1, 2])
        #expect(result.migrationCodes.map(\.position) == [.entry(1), .entry(2), .entry(4)])
        #expect(result.missingBatchParts.isEmpty)
        #expect(result.skipped.isEmpty)
    }

    @Test("a batch missing its second of three codes imports the others and names the missing one")
    func missingPart() throws {
        let export = try GoogleMigrationExport(accounts: Self.accounts(25))
        let result = try Importer.importGoogleMigration(uris: [export.uris[2], export.uris[0]])
        #expect(result.accounts.count == 15)
        #expect(result.missingBatchParts == [MissingBatchParts(batchID: export.batchID, batchSize: 3, missingIndices: [1])])
        let message = try #require(result.missingBatchParts.first).description
        #expect(message.hasPrefix("code 2 of 3 is missing (batch \(export.batchID))"))
    }

    @Test("several exports in one import: each batch is checked on its own")
    func severalBatches() throws {
        let first = try GoogleMigrationExport(accounts: Self.accounts(25))
        let second = try GoogleMigrationExport(accounts: Self.accounts(35))
        try #require(first.batchID != second.batchID)
        let uris = first.uris + [second.uris[0], second.uris[3]]
        let result = try Importer.importGoogleMigration(uris: uris)
        #expect(result.accounts.count == 25 + 15)
        #expect(result.missingBatchParts == [MissingBatchParts(batchID: second.batchID, batchSize: 4, missingIndices: [1, 2])])
        #expect(result.missingBatchParts.first?.description.hasPrefix("codes 2 and 3 of 4 are missing") == true)
    }

    @Test("detection: the first content line decides")
    func detection() throws {
        #expect(try ImportFormat.detect(Data("\n# GA\n  OTPAUTH-MIGRATION://offline?data=AA\n".utf8)) == .googleAuthenticator)
        #expect(ImportFormat(rawValue: "google") == .googleAuthenticator)
        #expect(ImportFormat.googleAuthenticator.description == "Google Authenticator export")
    }

    // MARK: - Helpers

    /// Distinct accounts of every kind the format carries.
    static func accounts(_ count: Int) -> [OTPAuthURI] {
        (0..<count).map { index in
            let algorithm = OTPAlgorithm.allCases[index % 3]
            let secret = try! OTPSecret(bytes: (0..<(10 + index % 30)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index) })
            return try! OTPAuthURI(
                kind: index % 4 == 3 ? .hotp : .totp,
                issuer: index % 5 == 0 ? nil : "Issuer \(index) é",
                accountName: "user\(index)@example.com",
                secret: secret,
                algorithm: algorithm,
                digits: index % 2 == 0 ? 6 : 8,
                counter: index % 4 == 3 ? UInt64(index * 1000) : nil)
        }
    }

    static func exportURIs(accounts count: Int) throws -> [String] {
        try GoogleMigrationExport(accounts: accounts(count)).uris
    }

    static func exportText(accounts count: Int) throws -> String {
        // One account a code, so the lines are separate codes of one batch.
        try accounts(count).map { try GoogleMigrationExport(accounts: [$0]).uris[0] }.joined(separator: "\n")
    }
}
