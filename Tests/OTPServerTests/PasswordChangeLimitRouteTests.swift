@testable import OTPAuthentication
import OTPServer
import Testing

/// Each new password costs a password hash: linking one and changing one count against the
/// password-change limits, before anything is hashed.
@Suite("Password-change limits through the REST API")
struct PasswordChangeLimitRouteTests {
    static let update = "/identitytoolkit.googleapis.com/v1/accounts:update" + ServerProcess.key
    static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp" + ServerProcess.key

    @Test("a user's new passwords, linked or changed, are refused past the per-account limit; another user is unaffected")
    func perAccountLimit() async throws {
        try await InProcessServer.with(limits: RequestLimits(passwordChangesPerAccount: 2)) { server in
            let anonymous = try #require(try await server.post(Self.signUp, "{}").json["idToken"] as? String)
            let linked = try await server.post(Self.signUp, #"{"idToken":"\#(anonymous)","email":"ada@example.com","password":"long enough"}"#)
            var token = try #require(linked.json["idToken"] as? String, "\(linked.body)")
            let changed = try await server.post(Self.update, #"{"idToken":"\#(token)","password":"second one","returnSecureToken":true}"#)
            token = try #require(changed.json["idToken"] as? String, "\(changed.body)")
            let hashes = server.service.passwordHashing.load.completed
            let refused = try await server.post(Self.update, #"{"idToken":"\#(token)","password":"third one","returnSecureToken":true}"#)
            #expect(
                refused.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : too many new passwords for this account") == true, "\(refused.body)")
            #expect(server.service.passwordHashing.load.completed == hashes)
            // A name change is no new password.
            #expect(try await server.post(Self.update, #"{"idToken":"\#(token)","displayName":"Ada"}"#).status == 200)

            let (_, other) = try await server.verifiedUser("bob@example.com")
            let bob = try await server.post(Self.update, #"{"idToken":"\#(other)","password":"another one","returnSecureToken":true}"#)
            #expect(bob.status == 200, "\(bob.body)")
        }
    }
}
