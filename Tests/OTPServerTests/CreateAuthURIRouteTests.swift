import OTPAuthentication
import Testing

/// `accounts:createAuthUri` (iOS `createAuthUri`), which JS's `fetchSignInMethodsForEmail` calls.
@Suite struct CreateAuthURIRouteTests {
    static let path = "/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=demo-key"
    static let pathV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/createAuthUri?key=demo-key"

    @Test func underEnumerationProtectionNoAddressIsToldApart() async throws {
        try await InProcessServer.with { server in
            _ = try await server.verifiedUser("kim@example.com")
            var answers: [[String: Any]] = []
            for address in ["kim@example.com", "nobody@example.com"] {
                let answer = try await server.post(Self.path, #"{"identifier":"\#(address)","continueUri":"http://localhost"}"#)
                #expect(answer.status == 200, "\(answer.body)")
                answers.append(answer.json)
            }
            for json in answers {
                #expect(json["kind"] as? String == "identitytoolkit#CreateAuthUriResponse")
                #expect(Set(json.keys) == ["kind", "sessionId"], "nothing about the account: \(json)")
            }
            let given = try await server.post(Self.path, #"{"identifier":"kim@example.com","continueUri":"http://localhost","sessionId":"s-1"}"#)
            #expect(given.json["sessionId"] as? String == "s-1", "the request's session id comes back")
        }
    }

    @Test func withoutProtectionTheMethodsAreListed() async throws {
        var configuration = InProcessServer.configuration
        configuration.passwords.emailEnumerationProtection = false
        try await InProcessServer.with(configuration: configuration) { server in
            _ = try await server.verifiedUser("lee@example.com")
            let known = try await server.post(Self.pathV3, #"{"identifier":"LEE@example.com","continueUri":"http://localhost"}"#)
            #expect(known.json["registered"] as? Bool == true, "\(known.body)")
            #expect(known.json["signinMethods"] as? [String] == ["password"])
            #expect(known.json["allProviders"] as? [String] == ["password"])
            let unknown = try await server.post(Self.path, #"{"identifier":"nobody@example.com","continueUri":"http://localhost"}"#)
            #expect(unknown.json["registered"] as? Bool == false, "\(unknown.body)")
            #expect(unknown.json["signinMethods"] as? [String] == [])
        }
    }

    @Test(arguments: [
        (#"{"continueUri":"http://localhost"}"#, "MISSING_IDENTIFIER"),
        (#"{"identifier":"kim@example.com"}"#, "MISSING_CONTINUE_URI"),
        (#"{"identifier":"not an address","continueUri":"http://localhost"}"#, "INVALID_IDENTIFIER"),
        (#"{"providerId":"google.com","continueUri":"http://localhost"}"#, "OPERATION_NOT_ALLOWED"),
    ])
    func badRequestsNameWhatIsWrong(_ body: String, _ code: String) async throws {
        try await InProcessServer.with { server in
            let answer = try await server.post(Self.path, body)
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.errorMessage?.hasPrefix(code + " : ") == true, "\(answer.body)")
        }
    }
}
