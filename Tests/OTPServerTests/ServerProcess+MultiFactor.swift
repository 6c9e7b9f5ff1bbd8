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
}

/// The phone steps, through the executable or the routes in process alike.
extension IdentityToolkitTestClient {
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
        let started = try await send(
            ServerProcess.v2("mfaEnrollment:start"),
            #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"\#(number)","recaptchaToken":"ignored"}}"#, bearer: nil)
        let sessionInfo = try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
        let (code, _) = try await sentCode(sessionInfo)
        let finalized = try await send(
            ServerProcess.v2("mfaEnrollment:finalize"),
            #"{"idToken":"\#(idToken)","displayName":"\#(displayName)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}}"#,
            bearer: nil)
        return try #require(finalized.json["idToken"] as? String, "\(finalized.body)")
    }
}

extension ServerProcess: IdentityToolkitTestClient {
    var currentStep: Int64 { TOTPCodes.step }

    func send(_ path: String, _ body: String, bearer: String?) async throws -> Answer {
        try await post(path, body, headers: bearer.map { [("Authorization", "Bearer " + $0)] } ?? [])
    }

    func sendForm(_ path: String, _ body: String) async throws -> Answer {
        try await post(path, body, contentType: "application/x-www-form-urlencoded")
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
