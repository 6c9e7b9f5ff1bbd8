import Foundation
import OTPTestUtilities
import Testing

/// `GET /metrics` of `otpkit-server` in Prometheus's text format: counters that move by exactly
/// the requests a test makes.
@Suite struct MetricsEndpointTests {
    typealias Server = ServerProcess

    static let signInRoute = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
    static let finalizeRoute = "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize"

    @Test("with --metrics-token-file a scrape needs the token: none, another or a near miss is 401 without the counters")
    func metricsTokenIsRequired() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let token = String(repeating: "m3tr1cs", count: 6)
        let tokenFile = directory.file("metrics.token")
        try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        try await ServerProcess.with(arguments: ["--emulator", "--metrics-token-file", tokenFile], in: directory) { server in
            for presented in [nil, "Bearer owner", "Bearer " + token.dropLast(), "Bearer " + token + "x", "Basic " + token] as [String?] {
                let answer = try await server.post("/metrics", "", headers: presented.map { [("Authorization", $0)] } ?? [], method: .GET)
                #expect(answer.status == 401, "\(presented ?? "none")")
                #expect(!answer.body.contains("hb_requests") && !answer.body.contains(token))
            }
            let scraped = try await server.post("/metrics", "", headers: [("Authorization", "Bearer " + token)], method: .GET)
            #expect(scraped.status == 200 && scraped.body.contains("otpkit_verifications_total"), "\(scraped.body.prefix(200))")
        }
        let short = directory.file("short.token")
        try "too-short\n".write(toFile: short, atomically: true, encoding: .utf8)
        for (file, says) in [(directory.file("missing.token"), "cannot read the metrics token file"), (short, "is shorter than 32 characters")] {
            let run = try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"),
                [
                    "--db", directory.file("other.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id",
                    "demo-otpkit",
                    "--port", "0", "--emulator", "--metrics-token-file", file,
                ])
            #expect(run.status != 0 && run.stdout.isEmpty, "\(run)")
            #expect(run.stderr.contains("the metrics token") && run.stderr.contains(says) && !run.stderr.contains("too-short"), "\(run.stderr)")
        }
    }

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
