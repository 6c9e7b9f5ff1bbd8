import Foundation
import OTPTestUtilities
import Testing

/// `otpkit-server --firebase-hash-config FILE`: a Firebase project's password hash parameters as
/// its console shows them, with which users imported with that project's hashes sign in; and
/// `--hmac-import-key ALGORITHM=FILE`, the key of imported HMAC hashes.
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

    /// RFC 4231's test case 2: HMAC-SHA256 under "Jefe" of "what do ya want for nothing?",
    /// imported as the hash of the password "want for nothing?" with the salt "what do ya ".
    @Test func anHMACKeyFileLetsUsersImportedWithItSignIn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("hmac.key")
        try Data(Data("Jefe".utf8).base64EncodedString().utf8).write(to: URL(fileURLWithPath: file))
        let hash = Data(
            stride(from: 0, to: 64, by: 2).map {
                UInt8(String(Array("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")[$0..<$0 + 2]), radix: 16)!
            }
        ).base64EncodedString()
        let salt = Data("what do ya ".utf8).base64EncodedString()
        try await ServerProcess.with(arguments: ["--emulator", "--hmac-import-key", "HMAC_SHA256=\(file)"], in: directory) { server in
            let imported = try await server.post(
                AccountImportTests.path,
                #"{"hashAlgorithm":"HMAC_SHA256","signerKey":"\#(Data("Jefe".utf8).base64EncodedString())","users":[{"localId":"h-1","email":"h@example.com","passwordHash":"\#(hash)","salt":"\#(salt)"}]}"#,
                headers: ServerProcess.ownerHeaders)
            #expect(imported.status == 200 && imported.json["error"] == nil, "\(imported.body)")
            let signedIn = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"h@example.com","password":"want for nothing?","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let otherKey = try await server.post(
                AccountImportTests.path,
                #"{"hashAlgorithm":"HMAC_SHA256","signerKey":"\#(Data("another".utf8).base64EncodedString())","users":[{"localId":"h-2","email":"h2@example.com","passwordHash":"\#(hash)","salt":"\#(salt)"}]}"#,
                headers: ServerProcess.ownerHeaders)
            #expect(
                otherKey.errorMessage?.hasPrefix("INVALID_HASH_ALGORITHM : this server is not configured with this HMAC_SHA256 key") == true,
                "\(otherKey.body)")
        }
        try await ServerProcess.expectRefusedAtStart([
            (["--hmac-import-key", "SHA256=\(file)"], "--hmac-import-key takes HMAC_MD5, HMAC_SHA1, HMAC_SHA256 or HMAC_SHA512"),
            (["--hmac-import-key", "HMAC_SHA1=\(directory.file("missing"))"], "--hmac-import-key: cannot read"),
        ])
    }
}
