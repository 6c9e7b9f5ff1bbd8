import Foundation
import OTPTestUtilities
import Testing

/// The GET endpoints the SDKs probe before a flow (`IDENTITY-TOOLKIT.md` C.13, A.9): the project
/// with its authorized domains, and the reCAPTCHA parameters, at the JS SDK's v1 paths and iOS's
/// v3 names.
@Suite struct ProjectEndpointTests {
    static let projects = "/identitytoolkit.googleapis.com/v1/projects"
    static let getProjectConfig = "/www.googleapis.com/identitytoolkit/v3/relyingparty/getProjectConfig"
    static let recaptchaParams = "/identitytoolkit.googleapis.com/v1/recaptchaParams"
    static let getRecaptchaParam = "/www.googleapis.com/identitytoolkit/v3/relyingparty/getRecaptchaParam"

    @Test func underTheEmulatorTheyAnswerAsTheEmulatorDoes() async throws {
        try await InProcessServer.with { server in
            for path in [Self.projects, Self.getProjectConfig] {
                let answer = try await server.get(path + "?key=any")
                #expect(answer.status == 200, "\(path): \(answer.body)")
                #expect(answer.json["projectId"] as? String == server.projectID, "\(answer.body)")
                #expect(answer.json["authorizedDomains"] as? [String] == ["localhost"], "\(answer.body)")
                #expect(answer.json.count == 2, "\(answer.body)")
            }
            for path in [Self.recaptchaParams, Self.getRecaptchaParam] {
                let answer = try await server.get(path + "?key=any")
                #expect(answer.status == 200, "\(path): \(answer.body)")
                #expect(answer.json["kind"] as? String == "identitytoolkit#GetRecaptchaParamResponse", "\(answer.body)")
                // The JS SDK's test verifier insists on a non-empty site key even against an emulator.
                let siteKey = try #require(answer.json["recaptchaSiteKey"] as? String, "\(answer.body)")
                #expect(siteKey.hasPrefix("Fake-key"), "\(answer.body)")
                #expect((answer.json["recaptchaStoken"] as? String)?.isEmpty == false, "\(answer.body)")
            }
            // The API key is still required, as for every client call.
            let keyless = try await server.get(Self.projects)
            #expect(keyless.status == 403, "\(keyless.body)")
            #expect(keyless.errorMessage?.hasPrefix("PERMISSION_DENIED") == true, "\(keyless.body)")
        }
    }

    @Test func withoutTheEmulatorNoReCAPTCHAKeyIsInvented() async throws {
        try await InProcessServer.with(apiKeys: ["demo-key"]) { server in
            for path in [Self.recaptchaParams, Self.getRecaptchaParam] {
                let answer = try await server.get(path + "?key=demo-key")
                #expect(answer.status == 200, "\(path): \(answer.body)")
                #expect(answer.json["kind"] as? String == "identitytoolkit#GetRecaptchaParamResponse", "\(answer.body)")
                #expect(answer.json.keys.contains("recaptchaSiteKey") == false, "left out, not null: \(answer.body)")
                #expect(answer.json.keys.contains("recaptchaStoken") == false, "\(answer.body)")
            }
            let config = try await server.get(Self.getProjectConfig + "?key=demo-key")
            #expect(config.json["projectId"] as? String == server.projectID, "\(config.body)")
            let wrongKey = try await server.get(Self.recaptchaParams + "?key=wrong")
            #expect(wrongKey.status == 400, "\(wrongKey.body)")
            #expect(wrongKey.errorMessage?.hasPrefix("API_KEY_INVALID") == true, "\(wrongKey.body)")
        }
    }
}

/// What a client gets from a path or method no route takes: 404 in Google's error shape, which
/// the SDKs and admin SDKs parse, rather than an empty body.
@Suite struct UnknownEndpointTests {
    @Test(arguments: [
        ("/identitytoolkit.googleapis.com/v1/accounts:frobnicate?key=any", "POST"),
        ("/www.googleapis.com/identitytoolkit/v3/relyingparty/noSuchName?key=any", "POST"),
        ("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any", "GET"),
        ("/nothing/here", "GET"),
    ])
    func answersNotFoundInGooglesShape(_ path: String, _ method: String) async throws {
        try await InProcessServer.with { server in
            let answer = try await server.post(path, "{}", method: method == "GET" ? .get : .post)
            #expect(answer.status == 404, "\(answer.body)")
            let error = try #require(answer.json["error"] as? [String: Any], "\(answer.body)")
            #expect(error["code"] as? Int == 404)
            #expect(error["status"] as? String == "NOT_FOUND")
            #expect((error["message"] as? String)?.hasPrefix("NOT_FOUND : ") == true, "\(answer.body)")
        }
    }
}
