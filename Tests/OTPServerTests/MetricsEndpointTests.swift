import Foundation
import Testing

/// `GET /metrics` of `otpkit-server` in Prometheus's text format: counters that move by exactly
/// the requests a test makes.
@Suite struct MetricsEndpointTests {
    typealias Server = ServerProcess

    static let signInRoute = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
    static let finalizeRoute = "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize"

    @Test func countersMoveWithRequestsAndVerifications() async throws {
        try await ServerProcess.with { server in
            let before = try await server.metrics()
            for kind in ["mfa_sign_in", "mfa_enrollment"] {
                for outcome in ["accepted", "refused"] {
                    #expect(try before.value("otpkit_verifications_total", ["kind": kind, "outcome": outcome]) == 0, "\(kind) \(outcome)")
                }
            }
            #expect(try before.value("hb_requests", ["http_route": Self.signInRoute]) == nil, "no sign-in yet")

            let (_, idToken) = try await server.verifiedUser("mia@example.com")
            let enrolled = try await server.enrollTOTP(idToken)
            #expect(try await server.verifications("mfa_enrollment", "accepted") == 1)
            #expect(try await server.verifications("mfa_enrollment", "refused") == 0)

            let pending = try await server.pendingSignIn("mia@example.com").credential
            let code = try TOTPCodes.code(enrolled.key, step: enrolled.step + 1)
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            let refused = try await server.post(
                Server.v2("mfaSignIn:finalize"), AbuseLimitTests.totpSignIn(pending, enrolled.enrollmentID, wrong))
            #expect(refused.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(refused.body)")
            #expect(try await server.verifications("mfa_sign_in", "refused") == 1)
            #expect(try await server.verifications("mfa_sign_in", "accepted") == 0)
            let signedIn = try await server.post(
                Server.v2("mfaSignIn:finalize"), AbuseLimitTests.totpSignIn(pending, enrolled.enrollmentID, code))
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(try await server.verifications("mfa_sign_in", "accepted") == 1)
            #expect(try await server.verifications("mfa_sign_in", "refused") == 1)

            // Requests by route and status, and their latency: two password sign-ins, one
            // refused code and one accepted.
            let signIns = ["http_route": Self.signInRoute, "http_response_status_code": "200"]
            #expect(try await server.metric("hb_requests", signIns, settlingAt: 2) == 2)
            #expect(try await server.metric("http_server_request_duration_count", signIns, settlingAt: 2) == 2)
            let after = try await server.metrics()
            #expect(try after.value("http_server_request_duration_bucket", signIns.merging(["le": "+Inf"]) { $1 }) == 2)
            #expect(try #require(try after.value("http_server_request_duration_sum", signIns)) > 0)
            for status in ["200", "400"] {
                let finalize = ["http_route": Self.finalizeRoute, "http_response_status_code": status]
                #expect(try await server.metric("hb_requests", finalize, settlingAt: 1) == 1, "mfaSignIn:finalize \(status)")
            }
            // No limit is given under --emulator: nothing was throttled.
            for (operation, scope) in [("sign_in", "ip"), ("sign_in", "account"), ("verification", "ip"), ("verification", "account"), ("sms", "ip")]
            {
                #expect(try after.value("otpkit_throttled_requests_total", ["operation": operation, "scope": scope]) == 0)
            }
        }
    }
}
