import JWTKit
import OTPServer
import Testing

/// What the route tests send requests through: the executable over HTTP (``ServerProcess``) or the
/// routes in process (``InProcessServer``). The steps below, written once, work through either.
protocol IdentityToolkitTestClient {
    var projectID: String { get }
    /// The time step whose code an authenticator shows now, by the server's clock.
    var currentStep: Int64 { get }
    /// POSTs `body` as JSON, with `Authorization: Bearer` and `bearer` when given.
    func send(_ path: String, _ body: String, bearer: String?) async throws -> ServerProcess.Answer
    func get(_ path: String) async throws -> ServerProcess.Answer
    /// POSTs `body` as a form (`application/x-www-form-urlencoded`), as JS sends a refresh.
    func sendForm(_ path: String, _ body: String) async throws -> ServerProcess.Answer
}

extension IdentityToolkitTestClient {
    /// An account with a verified address (the admin call, under `--emulator`), then signed in
    /// with its password: its uid and ID token.
    func verifiedUser(_ email: String, password: String = "long enough") async throws -> (uid: String, idToken: String) {
        let created = try await send(
            "/identitytoolkit.googleapis.com/v1/projects/\(projectID)/accounts",
            #"{"email":"\#(email)","password":"\#(password)","emailVerified":true}"#, bearer: "owner")
        try #require(created.status == 200, "\(created.body)")
        let signedIn = try await send(
            ServerProcess.signInPath, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#, bearer: nil)
        let token = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
        return (try #require(signedIn.json["localId"] as? String), token)
    }

    /// Password sign-in of a user with second factors: the pending credential and the hints.
    func pendingSignIn(_ email: String, password: String = "long enough") async throws -> (credential: String, hints: [[String: Any]]) {
        let answer = try await send(
            ServerProcess.signInPath, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#, bearer: nil)
        try #require(answer.status == 200, "\(answer.body)")
        #expect(answer.json.keys.contains("idToken") == false, "a pending sign-in carries no tokens: \(answer.body)")
        #expect(answer.json.keys.contains("refreshToken") == false)
        let credential = try #require(answer.json["mfaPendingCredential"] as? String, "\(answer.body)")
        return (credential, try #require(answer.json["mfaInfo"] as? [[String: Any]]))
    }

    /// Starts a TOTP enrollment: the `totpSessionInfo`.
    func startTOTPEnrollment(_ idToken: String) async throws -> [String: Any] {
        let started = try await send(ServerProcess.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#, bearer: nil)
        try #require(started.status == 200, "\(started.body)")
        return try #require(started.json["totpSessionInfo"] as? [String: Any], "\(started.body)")
    }

    /// Enrolls a TOTP factor with the code of the current step: the shared secret (base32), the
    /// factor's enrollment id, the step the enrollment accepted and the user's new ID token.
    func enrollTOTP(_ idToken: String) async throws -> (key: String, enrollmentID: String, step: Int64, idToken: String) {
        let info = try await startTOTPEnrollment(idToken)
        let key = try #require(info["sharedSecretKey"] as? String)
        let sessionInfo = try #require(info["sessionInfo"] as? String)
        let step = currentStep
        let finalized = try await send(
            ServerProcess.v2("mfaEnrollment:finalize"),
            #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(try TOTPCodes.code(key, step: step))"}}"#,
            bearer: nil)
        let enrolledToken = try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
        let factors = try #require(try await mfaInfo(enrolledToken))
        return (key, try #require(factors.first?["mfaEnrollmentId"] as? String), step, enrolledToken)
    }

    /// The `mfaInfo` of the user of `idToken`, or `nil` when the key is absent.
    func mfaInfo(_ idToken: String) async throws -> [[String: Any]]? {
        let found = try await send(ServerProcess.lookupPath, #"{"idToken":"\#(idToken)"}"#, bearer: nil)
        try #require(found.status == 200, "\(found.body)")
        let user = try #require((found.json["users"] as? [[String: Any]])?.first)
        return user["mfaInfo"] as? [[String: Any]]
    }

    /// The server's verified claims of `token`, checked against its published key set as a
    /// relying party does.
    func verifiedClaims(_ token: String) async throws -> IDTokenClaims {
        let keySet = try await get("/.well-known/jwks.json")
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: keySet.body)
        let claims = try await keys.verify(token, as: IDTokenClaims.self)
        #expect(claims.audience == projectID)
        return claims
    }
}
