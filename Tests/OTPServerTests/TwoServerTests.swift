import Foundation
import OTPPostgresTestServer
import OTPTestUtilities
import Testing

/// Two `otpkit-server` processes on one PostgreSQL database, with no load balancer: the client
/// alternates between them. What they must share is the database, the sealing key (`--key-file`),
/// the signing key file (`--signing-key-file`) and the project id; then every step may land on
/// either, and a code is still accepted once.
@Suite struct TwoServerTests {
    typealias Server = ServerProcess

    @Test func clientsAlternateBetweenTwoServersOfOneDatabase() async throws {
        try await TestDatabase.withFresh { database in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let url = try database.url
            let arguments = ["--emulator", "--signing-key-file", directory.file("signing.key")]
            try await ServerProcess.with(arguments: arguments, in: directory, database: url) { first in
                try await ServerProcess.with(arguments: arguments, in: directory, database: url) { second in
                    #expect(first.port != second.port)
                    try await alternate(first, second)
                }
            }
            #expect(try await database.rowCount("accounts") == 1)
        }
    }

    @Test func aRotationReachesTheServerThatDidNotRestart() async throws {
        try await TestDatabase.withFresh { database in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let url = try database.url
            let signingKeyFile = directory.file("signing.key")
            let arguments = ["--emulator", "--signing-key-file", signingKeyFile]
            let credentials = #"{"email":"rhea@example.com","password":"long enough","returnSecureToken":true}"#
            try await ServerProcess.with(arguments: arguments, in: directory, database: url) { second in
                var before = ""
                try await ServerProcess.with(arguments: arguments, in: directory, database: url) { first in
                    let created = try await first.post(ClientEndpointTests.signUp, credentials)
                    before = try #require(created.json["idToken"] as? String, "\(created.body)")
                }
                let oldKid = try #require(IDTokenKeyFileRotationTests.kid(of: before))
                let run = try await SigningKeyRotationTests.rotate([
                    "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--signing-key-file", signingKeyFile,
                ])
                #expect(run.status == 0, "\(run)")
                // The first restarts on the rotated file; the second runs on with the old set.
                try await ServerProcess.with(arguments: arguments, in: directory, database: url) { first in
                    let signedIn = try await first.post(ClientEndpointTests.signIn, credentials)
                    let after = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
                    let newKid = try #require(IDTokenKeyFileRotationTests.kid(of: after))
                    #expect(newKid != oldKid && run.stdout.contains(newKid), "\(run)")
                    for server in [second, first] {
                        for token in [after, before] {
                            let looked = try await SigningKeyRotationTests.lookup(server, token)
                            #expect(looked.status == 200, "\(looked.body)")
                        }
                        #expect(try await SigningKeyRotationTests.publishedKids(server) == [oldKid, newKid])
                    }
                    // Having taken the rotation up, the second signs with the new key too.
                    let atSecond = try await second.post(ClientEndpointTests.signIn, credentials)
                    #expect(IDTokenKeyFileRotationTests.kid(of: try #require(atSecond.json["idToken"] as? String)) == newKid)
                }
            }
        }
    }

    private func alternate(_ first: ServerProcess, _ second: ServerProcess) async throws {
        // Sign-up at the first, password sign-in at the second.
        _ = try await first.verifiedUser("ivy@example.com")
        let signedIn = try await second.post(Server.signInPath, #"{"email":"ivy@example.com","password":"long enough","returnSecureToken":true}"#)
        let idToken = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")

        // TOTP enrollment started at the first with the second's token, finished at the second.
        let info = try await first.startTOTPEnrollment(idToken)
        let key = try #require(info["sharedSecretKey"] as? String)
        let step = TOTPCodes.step
        let finalized = try await second.post(
            Server.v2("mfaEnrollment:finalize"),
            #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(info["sessionInfo"] as? String ?? "")","verificationCode":"\#(try TOTPCodes.code(key, step: step))"}}"#
        )
        #expect(finalized.status == 200, "\(finalized.body)")
        let enrolledToken = try #require(finalized.json["idToken"] as? String)
        let enrollmentID = try #require(try await first.mfaInfo(enrolledToken)?.first?["mfaEnrollmentId"] as? String)

        // One sign-in pending at each; the same valid code sent to both at once is accepted once.
        let (pendingAtFirst, _) = try await first.pendingSignIn("ivy@example.com")
        let (pendingAtSecond, _) = try await second.pendingSignIn("ivy@example.com")
        let code = try TOTPCodes.code(key, step: step + 1)
        func finalize(_ server: ServerProcess, _ pending: String) async throws -> ServerProcess.Answer {
            try await server.post(
                Server.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#
            )
        }
        async let atFirst = finalize(first, pendingAtFirst)
        async let atSecond = finalize(second, pendingAtSecond)
        let answers = try await [atFirst, atSecond]
        let accepted = answers.filter { $0.status == 200 }
        let refused = answers.filter { $0.status != 200 }
        #expect(accepted.count == 1, "exactly one acceptance: \(answers.map(\.body))")
        #expect(refused.count == 1)
        #expect(refused.first?.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "the replay's documented error: \(refused.map(\.body))")
        let winner = try #require(accepted.first)
        #expect(winner.json["idToken"] is String && refused.first?.json["idToken"] == nil)
        let winningServer = answers[0].status == 200 ? first : second
        let otherServer = answers[0].status == 200 ? second : first

        // The token of one server verifies with the other's published keys and is accepted by its lookup.
        let token = try #require(winner.json["idToken"] as? String)
        let claims = try await otherServer.verifiedClaims(token)
        #expect(claims.firebase.signInSecondFactor == "totp")
        #expect(try await first.get("/.well-known/jwks.json").body == second.get("/.well-known/jwks.json").body, "one signing key")
        #expect(try await otherServer.mfaInfo(token)?.count == 1)

        // A refresh token of one server refreshes at the other, keeping the second factor.
        let refreshToken = try #require(winner.json["refreshToken"] as? String)
        let refreshed = try await otherServer.post(Server.tokenPath, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
        #expect(refreshed.status == 200, "\(refreshed.body)")
        let refreshedClaims = try await winningServer.verifiedClaims(try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)"))
        #expect(refreshedClaims.firebase.secondFactorIdentifier == enrollmentID)
    }
}
