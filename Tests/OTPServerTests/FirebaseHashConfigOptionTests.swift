import Foundation
import OTPTestUtilities
import Testing

/// `otpkit-server --firebase-hash-config FILE`: a Firebase project's password hash parameters as
/// its console shows them, with which users imported with that project's hashes sign in.
@Suite struct FirebaseHashConfigOptionTests {
    @Test func theConsolesParametersLetImportedUsersSignIn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("hash-config.txt")
        try Data(FirebaseHashConfigExample.consoleText.utf8).write(to: URL(fileURLWithPath: file))
        try await ServerProcess.with(arguments: ["--emulator", "--firebase-hash-config", file], in: directory) { server in
            let imported = try await server.post(
                AccountImportTests.path,
                #"{"hashAlgorithm":"SCRYPT","signerKey":"\#(FirebaseHashConfigExample.signerKey)","saltSeparator":"Bw==","rounds":8,"memoryCost":14,"users":[{"localId":"fb-1","email":"fb@example.com","passwordHash":"lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==","salt":"42xEC+ixf3L2lw=="}]}"#,
                headers: ServerProcess.ownerHeaders)
            #expect(imported.status == 200, "\(imported.body)")
            #expect(imported.json["error"] == nil, "\(imported.body)")
            let signedIn = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"fb@example.com","password":"user1password","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
        }
    }

    @Test func aFileThatIsNoHashConfigStopsTheStartSayingWhy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("hash-config.txt")
        try Data(FirebaseHashConfigExample.consoleText.replacingOccurrences(of: "rounds: 8", with: "rounds: 9").utf8).write(
            to: URL(fileURLWithPath: file))
        try await ServerProcess.expectRefusedAtStart([
            (
                ["--firebase-hash-config", file],
                "--firebase-hash-config \(file): the Firebase password hash parameters have rounds 9: Firebase's are 1 to 8"
            ),
            (["--firebase-hash-config", directory.file("missing.txt")], "--firebase-hash-config: cannot read \(directory.file("missing.txt"))"),
        ])
    }
}
