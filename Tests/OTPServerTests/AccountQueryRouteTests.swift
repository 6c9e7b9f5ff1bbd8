import OTPServer
import Testing

/// `accounts:query` (and `:queryAccounts`) as an administrator calls it: one account by address,
/// uid or number, every account by uid from an offset, or only the count.
@Suite("Account queries through the REST API")
struct AccountQueryRouteTests {
    static let query = "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:query"

    static func ids(_ answer: ServerProcess.Answer) -> [String] {
        (answer.json["userInfo"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
    }

    @Test("by address, uid or number one account; all of them by uid from an offset; the count alone; other orders refused")
    func queries() async throws {
        try await InProcessServer.with { server in
            for index in [3, 1, 5, 2, 4] {
                let created = try await server.send(
                    "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts",
                    #"{"localId":"u\#(index)","email":"u\#(index)@example.com","phoneNumber":"+1201555010\#(index)"}"#, bearer: "owner")
                try #require(created.status == 200, "\(created.body)")
            }
            func query(_ body: String, path: String = Self.query) async throws -> ServerProcess.Answer {
                try await server.send(path, body, bearer: "owner")
            }
            #expect(Self.ids(try await query(#"{"expression":[{"email":"U2@example.com"}]}"#)) == ["u2"])
            #expect(Self.ids(try await query(#"{"expression":[{"userId":"u4"}]}"#)) == ["u4"])
            #expect(Self.ids(try await query(#"{"expression":[{"phoneNumber":"+12015550105"}]}"#)) == ["u5"])
            let none = try await query(#"{"expression":[{"phoneNumber":"not a number"}]}"#)
            #expect(none.status == 200 && Self.ids(none).isEmpty && none.json["recordsCount"] as? String == "0", "\(none.body)")
            let page = try await query(#"{"offset":"1","limit":"2"}"#)
            #expect(Self.ids(page) == ["u2", "u3"] && page.json["recordsCount"] as? String == "2", "\(page.body)")
            let all = try await query("{}", path: "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit:queryAccounts")
            #expect(Self.ids(all) == ["u1", "u2", "u3", "u4", "u5"], "\(all.body)")
            let count = try await query(#"{"returnUserInfo":false}"#)
            #expect(count.json["recordsCount"] as? String == "5" && count.json["userInfo"] == nil, "\(count.body)")

            let byName = try await query(#"{"sortBy":"NAME"}"#)
            #expect(byName.status == 400 && byName.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(byName.body)")
            let tooMany = try await query(#"{"limit":"501"}"#)
            #expect(tooMany.status == 400 && tooMany.errorMessage?.hasPrefix("INVALID_ARGUMENT : limit must be 1 to 500") == true, "\(tooMany.body)")
            let client = try await server.send(Self.query, "{}", bearer: nil)
            #expect(client.status == 401 || client.status == 403, "an administrator's call alone: \(client.body)")
        }
    }
}
