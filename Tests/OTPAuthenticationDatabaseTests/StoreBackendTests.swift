import Foundation
import Logging
import OTPDurableStore
import OTPAuthenticationDatabase
import OTPSealing
import OTPTestUtilities
import Testing

/// `--db`'s argument to a backend: the registry of URL schemes, and what each backend opens.
@Suite("Store backends")
struct StoreBackendTests {
    @Test(
        "an argument goes to the backend of its scheme in any letter case, a misspelt PostgreSQL URL to PostgreSQL, anything else to an SQLite file",
        arguments: [
            ("postgres://ada@db.example.com/otpkit", "PostgreSQL"),
            ("POSTGRESQL://ada@db.example.com/otpkit", "PostgreSQL"),
            ("postgres:/db.example.com/otpkit", "PostgreSQL"),
            ("/var/lib/otpkit/enrollments.sqlite", "SQLite"),
            ("enrollments.sqlite", "SQLite"),
            ("backup:2026/enrollments.sqlite", "SQLite"),
            ("./postgres://not-a-url", "SQLite"),
        ])
    func backendByScheme(argument: String, backend: String) {
        #expect(DatabaseLocation(argument).backend.name == backend)
        #expect(DatabaseLocation(argument).backend.refusal == nil)
    }

    @Test("hints show a URL's scheme only, never its password; a file's path whole")
    func shownArgument() {
        #expect(DatabaseLocation("postgres://ada:s3cret@db.example.com/otpkit").shownArgument == "postgres://…")
        #expect(DatabaseLocation("/var/lib/otpkit/e.sqlite").shownArgument == "/var/lib/otpkit/e.sqlite")
    }

    @Test("a server's signing key sits beside an SQLite file by default, and must be named for a shared database")
    func defaultSigningKeyPath() {
        #expect(DatabaseLocation("/var/lib/otpkit/e.sqlite").defaultSigningKeyPath == "/var/lib/otpkit/e.sqlite.signing-key")
        #expect(DatabaseLocation("postgres://db.example.com/otpkit").defaultSigningKeyPath == nil)
    }

    @Test("a URL of a scheme no store serves is refused as the caller's input, without the URL or its password, and creates nothing")
    func unsupportedScheme() async throws {
        let argument = "mysql://ada:s3cret@localhost/otpkit"
        let location = DatabaseLocation(argument)
        #expect(location.backend.refusal?.scheme == "mysql")
        let sealer = try SecretSealer(current: SealingKey(bytes: Array(repeating: 7, count: 32)))
        let error = await #expect(throws: UnsupportedStoreScheme.self) {
            _ = try await location.open(sealer: sealer, poolSize: 1, logger: Logger(label: "test"))
        }
        #expect(error?.kind == .configuration)
        #expect(error?.description.contains("s3cret") == false)
        #expect(error?.description.contains("postgres://") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: "mysql:"), "no SQLite file or directory made of the URL")
    }

    @Test("an SQLite location opens the file as the durable store, named by its path, and closes it")
    func opensSQLite() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/enrollments.sqlite"
        let sealer = try SecretSealer(current: SealingKey(bytes: Array(repeating: 7, count: 32)))
        let store = try await DatabaseLocation(path).open(sealer: sealer, poolSize: 1, logger: Logger(label: "test"))
        #expect(store.databaseName == path)
        #expect(store.sealer.currentKeyID == sealer.currentKeyID)
        #expect(try await store.resealAll(batchSize: 10) == 0)
        await store.closeQuietly()
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
