import Foundation
import JWTKit
import OTPCore
import OTPServer
import OTPTestUtilities
import Testing

/// What the multi-factor tests do against a running server, as the SDKs do it.
extension ServerProcess {
    static let key = "?key=demo-key"
    static let signInPath = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword" + key
    static let lookupPath = "/identitytoolkit.googleapis.com/v1/accounts:lookup" + key
    static let tokenPath = "/securetoken.googleapis.com/v1/token" + key

    /// A v2 multi-factor path as the SDKs build it against an emulator host
    /// (`mfaEnrollment:start`, …), or the bare `/v2/accounts/…` form.
    static func v2(_ name: String, bare: Bool = false) -> String {
        (bare ? "/v2/accounts/" : "/identitytoolkit.googleapis.com/v2/accounts/") + name + key
    }

    /// An account with a verified address (the admin call, under `--emulator`), then signed in
    /// with its password: its uid and ID token.
    func verifiedUser(_ email: String, password: String = "long enough") async throws -> (uid: String, idToken: String) {
        let created = try await post(
            "/identitytoolkit.googleapis.com/v1/projects/\(projectID)/accounts",
            #"{"email":"\#(email)","password":"\#(password)","emailVerified":true}"#, headers: [("Authorization", "Bearer owner")])
        try #require(created.status == 200, "\(created.body)")
        let signedIn = try await post(Self.signInPath, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#)
        let token = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
        return (try #require(signedIn.json["localId"] as? String), token)
    }

    /// Password sign-in of a user with second factors: the pending credential and the hints.
    func pendingSignIn(_ email: String, password: String = "long enough") async throws -> (credential: String, hints: [[String: Any]]) {
        let answer = try await post(Self.signInPath, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#)
        try #require(answer.status == 200, "\(answer.body)")
        #expect(answer.json.keys.contains("idToken") == false, "a pending sign-in carries no tokens: \(answer.body)")
        #expect(answer.json.keys.contains("refreshToken") == false)
        let credential = try #require(answer.json["mfaPendingCredential"] as? String, "\(answer.body)")
        return (credential, try #require(answer.json["mfaInfo"] as? [[String: Any]]))
    }

    /// Starts a TOTP enrollment: the `totpSessionInfo`.
    func startTOTPEnrollment(_ idToken: String) async throws -> [String: Any] {
        let started = try await post(Self.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","totpEnrollmentInfo":{}}"#)
        try #require(started.status == 200, "\(started.body)")
        return try #require(started.json["totpSessionInfo"] as? [String: Any], "\(started.body)")
    }

    /// Enrolls a TOTP factor with the code of the current step: the shared secret (base32), the
    /// factor's enrollment id, the step the enrollment accepted and the user's new ID token.
    func enrollTOTP(_ idToken: String) async throws -> (key: String, enrollmentID: String, step: Int64, idToken: String) {
        let info = try await startTOTPEnrollment(idToken)
        let key = try #require(info["sharedSecretKey"] as? String)
        let sessionInfo = try #require(info["sessionInfo"] as? String)
        let step = TOTPCodes.step
        let finalized = try await post(
            Self.v2("mfaEnrollment:finalize"),
            #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(try TOTPCodes.code(key, step: step))"}}"#
        )
        let enrolledToken = try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
        let factors = try #require(try await mfaInfo(enrolledToken))
        return (key, try #require(factors.first?["mfaEnrollmentId"] as? String), step, enrolledToken)
    }

    /// The code the verification-code list holds for `sessionInfo` (under `--emulator`).
    func sentCode(_ sessionInfo: String) async throws -> (code: String, phoneNumber: String) {
        let listed = try await get("/emulator/v1/projects/\(projectID)/verificationCodes")
        try #require(listed.status == 200, "\(listed.body)")
        let codes = try #require(listed.json["verificationCodes"] as? [[String: Any]], "\(listed.body)")
        let entry = try #require(codes.first { $0["sessionInfo"] as? String == sessionInfo }, "no code listed for the session: \(listed.body)")
        return (try #require(entry["code"] as? String), try #require(entry["phoneNumber"] as? String))
    }

    /// Enrolls `number` as a phone factor through the emulator's code list: its new ID token.
    func enrollPhone(_ idToken: String, number: String, displayName: String = "Phone") async throws -> String {
        let started = try await post(
            Self.v2("mfaEnrollment:start"),
            #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"\#(number)","recaptchaToken":"ignored"}}"#)
        let sessionInfo = try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
        let (code, _) = try await sentCode(sessionInfo)
        let finalized = try await post(
            Self.v2("mfaEnrollment:finalize"),
            #"{"idToken":"\#(idToken)","displayName":"\#(displayName)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}}"#)
        return try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
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

    /// The `mfaInfo` of the user of `idToken`, or `nil` when the key is absent.
    func mfaInfo(_ idToken: String) async throws -> [[String: Any]]? {
        let found = try await post(Self.lookupPath, #"{"idToken":"\#(idToken)"}"#)
        try #require(found.status == 200, "\(found.body)")
        let user = try #require((found.json["users"] as? [[String: Any]])?.first)
        return user["mfaInfo"] as? [[String: Any]]
    }
}

/// TOTP codes on the test's side: OTPKit's generator, cross-checked with oathtool.
enum TOTPCodes {
    static func code(_ base32: String, step: Int64) throws -> String {
        try TOTP(secret: OTPSecret(base32: base32)).code(at: step * 30)
    }

    static func oathtool(_ base32: String, step: Int64) async throws -> String {
        let run = try await ProcessRunner.run(ExternalTool.oathtool.path(), ["--totp", "--base32", "-N", "@\(step * 30)", base32])
        try #require(run.status == 0, "oathtool failed: \(run)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The current time step.
    static var step: Int64 { Int64(Date().timeIntervalSince1970) / 30 }
}
