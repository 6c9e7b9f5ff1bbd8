import Foundation
import Testing

extension ServerProcess {
    /// `GET /metrics`, parsed.
    func metrics() async throws -> PrometheusSamples {
        let answer = try await get("/metrics")
        try #require(answer.status == 200, "\(answer.body)")
        return try PrometheusSamples(parsing: answer.body)
    }

    /// The value of `name` with `labels` once it is `expected`, or what it last was after 10
    /// seconds: request counts are recorded after the answer is written, so a scrape right after
    /// the answer may come before them.
    func metric(_ name: String, _ labels: [String: String], settlingAt expected: Double) async throws -> Double? {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let value = try await metrics().value(name, labels)
            if value == expected || ContinuousClock.now >= deadline { return value }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// An `otpkit_verifications_total` count; `nil` when the series is missing.
    func verifications(_ kind: String, _ outcome: String) async throws -> Double? {
        try await metrics().value("otpkit_verifications_total", ["kind": kind, "outcome": outcome])
    }

    /// An `otpkit_throttled_requests_total` count.
    func throttled(_ operation: String, _ scope: String) async throws -> Double? {
        try await metrics().value("otpkit_throttled_requests_total", ["operation": operation, "scope": scope])
    }
}
