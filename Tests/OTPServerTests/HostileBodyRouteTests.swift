import Foundation
import Testing

/// Request bodies built to hurt a JSON reader or what comes after it: each refused with a 400 in
/// Google's error shape before anything is stored, and the server answering the next request.
@Suite struct HostileBodyRouteTests {
    static let signUp = EmailActionRouteTests.v1("accounts:signUp")

    static let bodies: [(name: String, body: String)] = [
        ("arrays nested 30,000 deep", String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)),
        ("objects nested 5,000 deep", String(repeating: #"{"a":"#, count: 5_000) + "1" + String(repeating: "}", count: 5_000)),
        ("a field nested 20,000 deep", #"{"email":"# + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "}"),
        ("a body over 64 KiB", #"{"email":""# + String(repeating: "a", count: 70_000) + #"@example.com","password":"long enough"}"#),
        (
            "a number of 10,000 digits",
            #"{"email":"n@example.com","password":"long enough","returnSecureToken":"# + String(repeating: "9", count: 10_000) + "}"
        ),
        ("a NUL inside a string", "{\"email\":\"nul\u{0}@example.com\",\"password\":\"long enough\"}"),
        ("a lone surrogate escape", #"{"email":"\udc00@example.com","password":"long enough"}"#),
        ("a key repeated 5,000 times", "{" + Array(repeating: #""email":"r@example.com""#, count: 5_000).joined(separator: ",") + "}"),
    ]

    @Test(arguments: bodies.map(\.name))
    func isRefusedAndTheServerGoesOn(_ name: String) async throws {
        let body = try #require(Self.bodies.first { $0.name == name }?.body)
        try await InProcessServer.with { server in
            let refused = try await server.post(Self.signUp, body)
            #expect(refused.status == 400, "\(name): \(refused.status) \(refused.body.prefix(300))")
            let error = try #require(refused.json["error"] as? [String: Any], "\(name): \(refused.body.prefix(300))")
            #expect(error["code"] as? Int == 400 && (error["message"] as? String)?.isEmpty == false, "\(error)")
            #expect(refused.body.utf8.count < 2_000, "the refusal repeats the body: \(refused.body.utf8.count) bytes")
            let page = try await server.send(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:query", "{}", bearer: "owner")
            #expect(page.json["recordsCount"] as? String == "0", "\(name) stored an account: \(page.body)")
            let next = try await server.post(Self.signUp, #"{"email":"next@example.com","password":"long enough"}"#)
            #expect(next.status == 200, "\(next.body)")
        }
    }
}
