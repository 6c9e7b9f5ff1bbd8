import Foundation
import OTPAuthentication
import Testing

/// The Auth emulator's `DELETE /emulator/v1/projects/{project}/accounts`, which test suites call
/// between tests.
@Suite struct EmulatorAccountsTests {
    static let path = "/emulator/v1/projects/demo-otpkit/accounts"

    @Test func underTheEmulatorEveryAccountGoes() async throws {
        try await InProcessServer.with { server in
            for index in 0..<3 { _ = try await server.verifiedUser("user\(index)@example.com") }
            let (_, idToken) = try await server.verifiedUser("enrolled@example.com")
            _ = try await server.enrollTOTP(idToken)
            let cleared = try await server.post(Self.path, "", method: .delete)
            #expect(cleared.status == 200, "\(cleared.body)")
            #expect(cleared.body == "{}")
            #expect(try await server.service.administration.accounts(after: nil, limit: 10).accounts.isEmpty)
            // The old tokens' users are gone; the address can sign up again.
            let lookup = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(idToken)"}"#)
            #expect(lookup.status == 400, "\(lookup.body)")
            _ = try await server.verifiedUser("enrolled@example.com")
            let other = try await server.post("/emulator/v1/projects/other/accounts", "", method: .delete)
            #expect(other.status == 404, "\(other.body)")
        }
    }

    @Test func withoutTheEmulatorThePathDoesNotExist() async throws {
        try await InProcessServer.with(apiKeys: ["demo-key"]) { server in
            try await server.verifiedAccount("kept@example.com")
            let refused = try await server.post(Self.path, "", method: .delete)
            #expect(refused.status == 404, "\(refused.body)")
            #expect(try await server.service.administration.accountDetails(email: "kept@example.com") != nil)
        }
    }
}
