import Foundation
import OTPImport
import OTPTestUtilities
import OTPURI
import Testing

/// Exports the FuzzImport libFuzzer target (Tests/Fuzz) stopped on, replayed through the checks it
/// makes: each refused with a message, or read into accounts whose URIs read back unchanged.
@Suite("Fuzzer regressions: imports")
struct FuzzRegressionImportTests {
    static let directory = "Tests/Fuzz/Regressions/FuzzImport"

    @Test("each file is read or refused with a message", arguments: try Fixture.fileNames(in: directory))
    func replay(_ name: String) throws {
        let data = try Fixture.data(Self.directory + "/" + name)
        let result: ImportResult
        do {
            result = try Importer.importAccounts(from: data)
        } catch {
            #expect(!error.description.isEmpty)
            return
        }
        for account in result.accounts {
            #expect(try OTPAuthURI(parsing: account.string, mode: .lenient) == account)
        }
    }

    /// Found by the fuzzer: a migration code declaring itself one of 2^31 made the import count
    /// through every one of them to list the missing codes; such a code is refused on its own now.
    @Test("a migration code of a batch no export has is refused, saying why")
    func batchOfBillions() throws {
        let text = String(decoding: try Fixture.data(Self.directory + "/migration-batch-of-billions.txt"), as: UTF8.self)
        var refusals: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("otpauth-migration://") {
            do {
                _ = try Importer.importAccounts(from: Data(line.utf8), format: .googleAuthenticator)
            } catch {
                refusals.append(error.description)
            }
        }
        #expect(refusals.contains { $0.contains("which no export is") }, "\(refusals)")
    }
}
