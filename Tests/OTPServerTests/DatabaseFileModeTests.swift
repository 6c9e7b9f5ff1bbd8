import Foundation
import OTPTestUtilities
import Testing

/// The SQLite database holds password hashes, addresses and session ids: a new one is the
/// owner's alone, and one that other users can read is named at start.
@Suite("Database file modes at the server's start")
struct DatabaseFileModeTests {
    @Test("a new database is 0600 under umask 022 and starts without a warning; one made 0644 is warned about at the next start")
    func readableDatabaseIsWarnedAbout() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("otpkit.sqlite")
        let keyFile = try ServerProcess.sealingKeyFile(in: directory)
        let commandLine = ["--db", database, "--key-file", keyFile, "--project-id", "demo-otpkit", "--port", "0", "--emulator"]
        var logged = ""
        let serve: (ServerProcess) async throws -> Void = { server in
            let ready = try await server.get("/")
            #expect(ready.status == 200)
        }
        try await ServerProcess.with(commandLine: commandLine, projectID: "demo-otpkit", in: directory, standardError: { logged = $0 }, serve)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: database)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "\(String(mode, radix: 8))")
        #expect(!logged.contains("readable by other users"), "\(logged)")

        chmod(database, 0o644)
        try await ServerProcess.with(commandLine: commandLine, projectID: "demo-otpkit", in: directory, standardError: { logged = $0 }, serve)
        #expect(logged.contains("the database file \(database) is readable by other users"), "\(logged)")
        #expect(logged.contains("run chmod 600 on it"))
    }
}
