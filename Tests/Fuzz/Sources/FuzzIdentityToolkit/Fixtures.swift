import Foundation
import HTTPTypes
import NIOCore
import OTPAuthentication
import OTPCore

/// An account with a password and a TOTP factor, made through the routes at the start of each
/// store, and the live credentials an input's placeholders stand for.
struct Fixtures: Sendable {
    static let projectID = "demo-otpkit"
    static let v1 = "/identitytoolkit.googleapis.com/v1/"
    static let v2 = "/identitytoolkit.googleapis.com/v2/"
    static let key = "?key=fuzz"

    let clock: ManualAuthClock
    let totpKey: String
    /// `$NAME` and what it stands for.
    let values: [(name: [UInt8], value: [UInt8])]

    /// The current TOTP code of the fixture's factor.
    var code: String { (try? TOTP(secret: OTPSecret(base32: totpKey)).code(at: clock.now())) ?? "000000" }

    static func make(_ routes: FuzzRoutes, clock: ManualAuthClock) async throws -> Fixtures {
        let email = "fuzz@example.com"
        // Made by the administrator with a verified address, which a second factor needs.
        let created = try await post(
            routes, v1 + "projects/\(projectID)/accounts", ["email": email, "password": "fuzzing password", "emailVerified": true])
        let uid = try string(created, "localId")
        let firstSignIn = try await post(routes, v1 + "accounts:signInWithPassword", ["email": email, "password": "fuzzing password"])
        let firstToken = try string(firstSignIn, "idToken")
        let start = try await post(routes, v2 + "accounts/mfaEnrollment:start", ["idToken": firstToken, "totpEnrollmentInfo": [String: String]()])
        let session = try object(start, "totpSessionInfo")
        let totpKey = try string(session, "sharedSecretKey")
        let code = try TOTP(secret: OTPSecret(base32: totpKey)).code(at: clock.now())
        let finalize = try await post(
            routes, v2 + "accounts/mfaEnrollment:finalize",
            ["idToken": firstToken, "totpVerificationInfo": ["sessionInfo": try string(session, "sessionInfo"), "verificationCode": code]])
        let idToken = try string(finalize, "idToken")
        let refreshToken = try string(finalize, "refreshToken")
        // The next step, so that the enrollment's code is not taken for a replay.
        clock.advance(by: 30)
        let signIn = try await post(routes, v1 + "accounts:signInWithPassword", ["email": email, "password": "fuzzing password"])
        let pending = try string(signIn, "mfaPendingCredential")
        let enrollment = try string(try array(signIn, "mfaInfo").first ?? [:], "mfaEnrollmentId")
        _ = try await post(routes, v1 + "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": email])
        let oobCodes = try await send(routes, .get, "/emulator/v1/projects/\(projectID)/oobCodes", body: nil)
        let oobCode = try string(try array(oobCodes, "oobCodes").first ?? [:], "oobCode")
        let sent = try await post(routes, v1 + "accounts:sendVerificationCode", ["phoneNumber": "+14155552671"])
        let sessionInfo = try string(sent, "sessionInfo")
        let fixtures: [(String, String)] = [
            ("ID_TOKEN", idToken), ("REFRESH_TOKEN", refreshToken), ("PENDING", pending), ("ENROLLMENT", enrollment),
            ("OOB_CODE", oobCode), ("SESSION_INFO", sessionInfo), ("UID", uid),
        ]
        return Fixtures(clock: clock, totpKey: totpKey, values: fixtures.map { (Array("$\($0)".utf8), Array($1.utf8)) })
    }

    /// `input` with every placeholder replaced.
    func substitute(_ input: [UInt8]) -> [UInt8] {
        guard input.contains(UInt8(ascii: "$")) else { return input }
        var output = input
        for (name, value) in values + [(Array("$CODE".utf8), Array(code.utf8))] {
            output = Self.replace(name, with: value, in: output)
        }
        return output
    }

    private static func replace(_ pattern: [UInt8], with value: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == pattern[0], bytes[index...].starts(with: pattern) {
                output += value
                index += pattern.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    // MARK: Setting up, through the routes

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    private static func post(_ routes: FuzzRoutes, _ path: String, _ body: [String: Any]) async throws -> [String: Any] {
        try await send(routes, .post, path + key, body: try JSONSerialization.data(withJSONObject: body))
    }

    private static func send(_ routes: FuzzRoutes, _ method: HTTPRequest.Method, _ path: String, body: Data?) async throws
        -> [String: Any]
    {
        let response = try await routes.send(
            method, path, headers: [.contentType: "application/json", .authorization: "Bearer owner"], body: ByteBuffer(bytes: body ?? Data()))
        let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
        guard response.status == .ok, let object = json as? [String: Any] else {
            throw SetupFailure(description: "\(path) answered \(response.status): \(String(buffer: response.body))")
        }
        return object
    }

    private static func string(_ object: [String: Any], _ name: String) throws -> String {
        guard let value = object[name] as? String else { throw SetupFailure(description: "no \(name) in \(object)") }
        return value
    }

    private static func object(_ object: [String: Any], _ name: String) throws -> [String: Any] {
        guard let value = object[name] as? [String: Any] else { throw SetupFailure(description: "no \(name) in \(object)") }
        return value
    }

    private static func array(_ object: [String: Any], _ name: String) throws -> [[String: Any]] {
        guard let value = object[name] as? [[String: Any]] else { throw SetupFailure(description: "no \(name) in \(object)") }
        return value
    }
}
