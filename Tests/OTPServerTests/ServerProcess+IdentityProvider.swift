import Foundation
import OTPLoopbackHTTP
import Testing

/// What the IdP and profile tests send, shaped as the JS SDK (v1 paths) and the iOS SDK (v3 names)
/// send it (`IDENTITY-TOOLKIT.md` B.2, B.3, C.5, C.7).
extension ServerProcess {
    static let signInWithIdpPath = "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp" + key
    static let verifyAssertionPath = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion" + key
    static let updatePath = "/identitytoolkit.googleapis.com/v1/accounts:update" + key
    static let setAccountInfoPath = "/www.googleapis.com/identitytoolkit/v3/relyingparty/setAccountInfo" + key
    static let signUpPath = "/identitytoolkit.googleapis.com/v1/accounts:signUp" + key
    static let signupNewUserPath = "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser" + key

    enum SDK { case js, iOS }

    /// Runs `body` against a server that trusts the test identity provider as `google.com`
    /// (`--identity-provider google.com=CLIENT_ID,ISSUER,JWKS`), under `--emulator` or, when
    /// `emulator` is false, with the API key `demo-key` only.
    static func withIdentityProvider(emulator: Bool = true, _ body: (ServerProcess, TestIdentityProvider) async throws -> Void) async throws {
        let provider = try await TestIdentityProvider.start()
        do {
            let trust = "google.com=\(provider.audience),\(provider.issuer),\(provider.jwksURL)"
            try await with(arguments: (emulator ? ["--emulator"] : ["--api-key", "demo-key"]) + ["--identity-provider", trust]) { server in
                try await body(server, provider)
            }
        } catch {
            try? await provider.stop()
            throw error
        }
        try await provider.stop()
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The IdP, profile and account steps, through the executable or the routes in process alike.
extension IdentityToolkitTestClient {
    typealias SDK = ServerProcess.SDK
    typealias Answer = ServerProcess.Answer

    /// An IdP sign-in, or a link with `idToken`: JS's `signInWithCredential`/`linkWithCredential`
    /// (`accounts:signInWithIdp`, `returnIdpCredential` only from popups and redirects) or iOS's
    /// `verifyAssertion`, which always asks for the credential back and for auto-creation.
    func signInWithIdp(
        _ token: String, providerID: String = "google.com", idToken: String? = nil, sdk: SDK = .js, returnIdpCredential: Bool = false
    ) async throws -> Answer {
        var fields: [String: Any] = [
            "requestUri": "http://localhost", "postBody": "id_token=\(token)&providerId=\(providerID)", "returnSecureToken": true,
        ]
        switch sdk {
        case .js:
            if returnIdpCredential { fields["returnIdpCredential"] = true }
        case .iOS:
            fields["returnIdpCredential"] = true
            fields["autoCreate"] = true
        }
        if let idToken { fields["idToken"] = idToken }
        return try await send(
            sdk == .js ? ServerProcess.signInWithIdpPath : ServerProcess.verifyAssertionPath, ServerProcess.json(fields), bearer: nil)
    }

    /// `accounts:update` (JS) or `setAccountInfo` (iOS, which adds `returnSecureToken`) with `fields`.
    func updateAccount(_ idToken: String, _ fields: [String: Any], sdk: SDK = .js) async throws -> Answer {
        var body = fields
        body["idToken"] = idToken
        if sdk == .iOS { body["returnSecureToken"] = true }
        return try await send(sdk == .js ? ServerProcess.updatePath : ServerProcess.setAccountInfoPath, ServerProcess.json(body), bearer: nil)
    }

    /// A password account made by JS's `createUserWithEmailAndPassword`: its uid, ID and refresh token.
    func passwordUser(_ email: String, password: String = "long enough") async throws -> (uid: String, idToken: String, refreshToken: String) {
        let answer = try await send(
            ServerProcess.signUpPath, ServerProcess.json(["email": email, "password": password, "returnSecureToken": true]), bearer: nil)
        try #require(answer.status == 200, "\(answer.body)")
        return (
            try #require(answer.json["localId"] as? String), try #require(answer.json["idToken"] as? String),
            try #require(answer.json["refreshToken"] as? String)
        )
    }

    /// The user of `idToken` as `accounts:lookup` answers it.
    func lookupUser(_ idToken: String) async throws -> [String: Any] {
        let found = try await send(ServerProcess.lookupPath, ServerProcess.json(["idToken": idToken]), bearer: nil)
        try #require(found.status == 200, "\(found.body)")
        return try #require((found.json["users"] as? [[String: Any]])?.first, "\(found.body)")
    }

    /// The provider ids of the user's `providerUserInfo`, sorted.
    func providerIDs(_ idToken: String) async throws -> [String] {
        let user = try await lookupUser(idToken)
        return ((user["providerUserInfo"] as? [[String: Any]]) ?? []).compactMap { $0["providerId"] as? String }.sorted()
    }

    /// The accounts an administrator finds with the identity `rawID` at `providerID` (under `--emulator`).
    func accountsWithIdentity(_ providerID: String, rawID: String) async throws -> [[String: Any]] {
        let found = try await send(
            "/identitytoolkit.googleapis.com/v1/projects/\(projectID)/accounts:lookup",
            ServerProcess.json(["federatedUserId": [["providerId": providerID, "rawId": rawID]]]), bearer: "owner")
        try #require(found.status == 200, "\(found.body)")
        return found.json["users"] as? [[String: Any]] ?? []
    }

    /// A refresh as JS sends it: a form.
    func refresh(_ refreshToken: String) async throws -> Answer {
        try await sendForm(ServerProcess.tokenPath, "grant_type=refresh_token&refresh_token=\(refreshToken)")
    }
}
