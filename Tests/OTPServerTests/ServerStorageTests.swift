import Foundation
import OTPPostgresTestServer
import OTPTestUtilities
import Testing

/// Where the executable keeps what must outlive it: the store `--db` names, SQLite or PostgreSQL,
/// and the signing key that tokens issued before a restart still verify with.
@Suite struct ServerStorageTests {
    @Test func tokensOutliveARestartAndTheKeyFileIsSealed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var token = ""
        var refreshToken = ""
        try await ServerProcess.with(in: directory) { server in
            let created = try await server.post(ClientEndpointTests.signUp, #"{"email":"gina@example.com","password":"long enough"}"#)
            token = try #require(created.json["idToken"] as? String, "\(created.body)")
            refreshToken = try #require(created.json["refreshToken"] as? String, "\(created.body)")
        }
        let keyFile = directory.file("otpkit.sqlite.signing-key")
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try !String(contentsOfFile: keyFile, encoding: .utf8).contains("PRIVATE KEY"))
        try await ServerProcess.with(in: directory) { server in
            let found = try await server.post(ClientEndpointTests.lookup, #"{"idToken":"\#(token)"}"#)
            #expect(found.status == 200, "\(found.body)")
            #expect((found.json["users"] as? [[String: Any]])?.first?["email"] as? String == "gina@example.com")
            let refreshed = try await server.post(ClientEndpointTests.token, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 200, "\(refreshed.body)")
            // Deleting the account ends its sessions, and the refresh token with them.
            let uid = try #require(refreshed.json["user_id"] as? String)
            let deleted = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:delete", #"{"localId":"\#(uid)"}"#,
                headers: [("Authorization", "Bearer owner")])
            #expect(deleted.status == 200, "\(deleted.body)")
            let gone = try await server.post(ClientEndpointTests.token, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            #expect(gone.errorMessage?.hasPrefix("USER_NOT_FOUND : ") == true, "\(gone.body)")
        }
        // Another sealing key opens neither the database nor the signing key: the server refuses to start.
        try FileManager.default.removeItem(atPath: directory.file("sealing.key"))
        let refused = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            [
                "--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id", "demo-otpkit",
                "--emulator", "--port", "0",
            ])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("the sealing key does not open the ID token signing key"), "\(refused)")
    }

    @Test func aURLOfASchemeNoStoreServesStopsTheStartWithOneLineAndCreatesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = try ServerProcess.sealingKeyFile(in: directory)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let refused = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            ["--db", "mysql://ada:s3cret@localhost/otpkit", "--key-file", keyFile, "--project-id", "demo-otpkit", "--emulator", "--port", "0"],
            workingDirectory: directory.path)
        #expect(refused.status != 0, "\(refused)")
        #expect(refused.stderr.contains("no store serves mysql:// URLs"), "\(refused)")
        #expect(!refused.stderr.contains("s3cret"), "the message repeats the URL's password: \(refused)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == before, "nothing created beside the key")
    }

    @Test func servesAPostgreSQLDatabase() async throws {
        try await TestDatabase.withFresh { database in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let url = try database.url
            // Servers of one database share the signing key only through a file they are all given.
            let refused = try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"),
                [
                    "--db", url, "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id", "demo-otpkit", "--emulator", "--port",
                    "0",
                ])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("give --signing-key-file with a PostgreSQL database"), "\(refused)")
            #expect(!refused.stderr.contains("postgresql://"), "the message repeats the URL")

            try await ServerProcess.with(
                arguments: ["--emulator", "--signing-key-file", directory.file("signing.key")], in: directory, database: url
            ) { server in
                let created = try await server.post(ClientEndpointTests.signUp, #"{"email":"hank@example.com","password":"long enough"}"#)
                #expect(created.status == 200, "\(created.body)")
                let token = try #require(created.json["idToken"] as? String)
                let signedIn = try await server.post(ClientEndpointTests.verifyPassword, #"{"email":"hank@example.com","password":"long enough"}"#)
                #expect(signedIn.status == 200, "\(signedIn.body)")
                let found = try await server.post(ClientEndpointTests.getAccountInfo, #"{"idToken":"\#(token)"}"#)
                #expect(found.status == 200, "\(found.body)")
                let duplicate = try await server.post(ClientEndpointTests.signUp, #"{"email":"hank@example.com","password":"long enough"}"#)
                #expect(duplicate.errorMessage?.hasPrefix("EMAIL_EXISTS : ") == true, "\(duplicate.body)")
            }
            #expect(try await database.rowCount("accounts") == 1)
        }
    }
}
