import Foundation
import OTPTestUtilities
import Testing

/// `--admin-token-file`: the operator's bearer token opens the admin calls with or without
/// `--emulator`; `Bearer owner` only under `--emulator`; anything else is 401
/// `INSUFFICIENT_PERMISSION`, never repeating what was presented, and changes nothing; a file that
/// cannot serve stops the server at start with one line.
@Suite struct AdminTokenTests {
    /// 64 hex characters, as `openssl rand -hex 32` prints.
    static func newToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// `text` written to `name` in `directory` with mode 0600: its path.
    static func tokenFile(_ text: String, _ name: String = "admin.token", in directory: TemporaryDirectory) throws -> String {
        let path = directory.file(name)
        try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    static func accounts(_ server: ServerProcess, _ suffix: String = "") -> String {
        "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts" + suffix
    }

    /// The display name of `uid` as an administrator with `token` reads it.
    static func displayName(_ server: ServerProcess, _ uid: String, token: String) async throws -> String? {
        let found = try await server.post(
            accounts(server, ":lookup"), ServerProcess.json(["localId": [uid]]), headers: [("Authorization", "Bearer " + token)])
        try #require(found.status == 200, "\(found.body)")
        let users = try #require(found.json["users"] as? [[String: Any]], "\(found.body)")
        return users.first?["displayName"] as? String
    }

    /// Every way a request may present the wrong credential, each refused with nothing changed.
    static func expectRefusals(_ server: ServerProcess, token: String, uid: String, ownerAccepted: Bool) async throws {
        // One character off at either end, one too many, one too few.
        let lastOff = String(token.dropLast()) + (token.last == "0" ? "1" : "0")
        let firstOff = (token.first == "0" ? "1" : "0") + String(token.dropFirst())
        var presented: [[(String, String)]] = [
            [], [("Authorization", "Bearer " + Self.newToken())], [("Authorization", "Bearer " + lastOff)],
            [("Authorization", "Bearer " + firstOff)], [("Authorization", "Bearer " + token + "0")],
            [("Authorization", "Bearer " + String(token.dropLast()))], [("Authorization", "Basic " + token)], [("Authorization", token)],
            [("Authorization", "Bearer")],
        ]
        if !ownerAccepted { presented.append([("Authorization", "Bearer owner")]) }
        for headers in presented {
            let refused = try await server.post(
                accounts(server, ":update"), ServerProcess.json(["localId": uid, "displayName": "Mallory"]), headers: headers)
            #expect(refused.status == 401, "\(headers): \(refused.body)")
            #expect(refused.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION : admin calls need ") == true, "\(headers): \(refused.body)")
            #expect(refused.errorMessage?.contains("--admin-token-file") == true, "says how to fix it: \(refused.body)")
            for (_, value) in headers {
                let credential = value.split(separator: " ").last.map(String.init) ?? value
                #expect(credential.count < 8 || !refused.body.contains(credential), "the presented credential repeated: \(refused.body)")
            }
            let created = try await server.post(accounts(server), #"{"email":"mallory@example.com"}"#, headers: headers)
            #expect(created.status == 401, "\(headers): \(created.body)")
        }
        #expect(try await displayName(server, uid, token: token) == "Alice", "a refused update changed the account")
        let lookup = try await server.post(
            accounts(server, ":lookup"), #"{"email":["mallory@example.com"]}"#, headers: [("Authorization", "Bearer " + token)])
        #expect(lookup.status == 200 && lookup.json["users"] == nil, "a refused creation made an account: \(lookup.body)")
    }

    @Test func theTokenOpensAdminCallsWithoutTheEmulatorAndNothingElseDoes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let token = Self.newToken()
        let file = try Self.tokenFile(token + "\n", in: directory)
        try await ServerProcess.with(arguments: ["--api-key", "demo-key", "--admin-token-file", file], in: directory) { server in
            let created = try await server.post(
                Self.accounts(server), #"{"email":"alice@example.com","displayName":"Alice"}"#, headers: [("Authorization", "Bearer " + token)])
            #expect(created.status == 200, "\(created.body)")
            let uid = try #require(created.json["localId"] as? String, "\(created.body)")
            // The scheme in any letter case, as RFC 9110 has it.
            #expect(try await Self.displayName(server, uid, token: token) == "Alice")
            let lower = try await server.post(
                Self.accounts(server, ":lookup"), ServerProcess.json(["localId": [uid]]), headers: [("Authorization", "bearer " + token)])
            #expect(lower.status == 200, "\(lower.body)")
            try await Self.expectRefusals(server, token: token, uid: uid, ownerAccepted: false)
            let listed = try await server.get(Self.accounts(server, ":batchGet"))
            #expect(listed.status == 401, "listing without a credential: \(listed.body)")
        }
    }

    @Test func underTheEmulatorBothTheTokenAndOwnerAreAcceptedFromTheEnvironment() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let token = Self.newToken()
        let file = try Self.tokenFile(token, in: directory)
        let commandLine = [
            "--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id",
            "demo-otpkit", "--port", "0", "--emulator",
        ]
        try await ServerProcess.with(
            commandLine: commandLine, environment: ["OTPKIT_SERVER_ADMIN_TOKEN_FILE": file], projectID: "demo-otpkit", in: directory
        ) { server in
            let created = try await server.post(
                Self.accounts(server), #"{"email":"alice@example.com","displayName":"Alice"}"#, headers: [("Authorization", "Bearer owner")])
            let uid = try #require(created.json["localId"] as? String, "\(created.body)")
            let byToken = try await server.post(
                Self.accounts(server), #"{"email":"bob@example.com"}"#, headers: [("Authorization", "Bearer " + token)])
            #expect(byToken.status == 200, "\(byToken.body)")
            try await Self.expectRefusals(server, token: token, uid: uid, ownerAccepted: true)
        }
    }

    @Test func aFileThatCannotServeStopsTheStartInOneLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let short = String(Self.newToken().prefix(31))
        let spaced = "first-half-of-a-long-token second-half-of-it"
        let cases: [(file: String?, variable: Bool, says: String)] = [
            (nil, false, "cannot read the admin token file \(directory.file("missing.token")): no such file"),
            (try Self.tokenFile("", "empty.token", in: directory), false, "is empty: write a token of at least 32 characters"),
            (try Self.tokenFile(" \n\t\n", "blank.token", in: directory), true, "is empty"),
            (try Self.tokenFile(short + "\n", "short.token", in: directory), false, "is shorter than 32 characters"),
            (try Self.tokenFile(short, "short-env.token", in: directory), true, "is shorter than 32 characters"),
            (try Self.tokenFile(spaced, "spaced.token", in: directory), false, "must be one word of visible ASCII characters"),
        ]
        let keyFile = try ServerProcess.sealingKeyFile(in: directory)
        for (file, variable, says) in cases {
            let path = file ?? directory.file("missing.token")
            let base = ["--db", directory.file("otpkit.sqlite"), "--key-file", keyFile, "--project-id", "demo-otpkit", "--port", "0", "--emulator"]
            let run = try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"), variable ? base : base + ["--admin-token-file", path],
                environment: ServerProcess.serverEnvironment(variable ? ["OTPKIT_SERVER_ADMIN_TOKEN_FILE": path] : [:]))
            #expect(run.status != 0, "\(path): \(run)")
            #expect(run.stdout.isEmpty, "no port line: \(run)")
            let message = run.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!message.contains("\n"), "one line: \(run.stderr)")
            #expect(message.contains(says), "\(path): \(message)")
            #expect(!message.contains(short) && !message.contains("second-half"), "the token printed: \(message)")
            #expect(!FileManager.default.fileExists(atPath: directory.file("otpkit.sqlite")), "nothing opened")
        }
    }
}
