import Foundation
import Testing

/// `totp factors`: enrollment times a person reads, and `--json` for scripts, never the secret.
@Suite("totp factors", .serialized)
struct FactorsCommandTests {
    /// Parses the output's times with Foundation's formatter, not OTPKit's, so the two must agree.
    static func unixTime(iso8601 text: Substring) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: String(text)).map { Int64($0.timeIntervalSince1970) }
    }

    @Test("the listing shows the enrollment time as ISO 8601 in UTC, not Unix seconds")
    func readableTime() async throws {
        let scratch = try Scratch()
        let before = Int64(Date().timeIntervalSince1970)
        let enrolled = try await scratch.enroll(user: "gina", email: "gina@example.com", subcommand: ["enroll", "--name", "Phone"])
        let after = Int64(Date().timeIntervalSince1970)
        try #require(enrolled.status == 0, "\(enrolled.stderr)")

        let listing = try await scratch.run(["factors", "--db", scratch.database, "--user", "gina", "--key-file", scratch.keyFile])
        #expect(listing.status == 0, "\(listing.stderr)")
        let line = try #require(listing.stdout.split(separator: "\n").first)
        let time = try #require(line.split(separator: " ").first { $0.hasPrefix("20") && $0.hasSuffix("Z") }, "no ISO 8601 time in \(line)")
        #expect(time.count == "2026-11-23T14:50:33Z".count && time.dropFirst(10).first == "T", "\(time)")
        let seconds = try #require(Self.unixTime(iso8601: time), "\(time) is not ISO 8601")
        #expect((before...after).contains(seconds), "\(time) is not the enrollment time")
        #expect(!line.contains(String(seconds)), "raw Unix seconds in \(line)")
        #expect(line.contains("Phone") && line.contains("SHA1/6/30s"))
        #expect(!listing.stdout.contains(enrolled.key))
    }

    @Test("--json lists every factor as an object with numbers kept as numbers, and no secret")
    func json() async throws {
        let scratch = try Scratch()
        let before = Int64(Date().timeIntervalSince1970)
        let first = try await scratch.enroll(user: "hal", email: "hal@example.com", subcommand: ["enroll", "--name", "Work \"laptop\""])
        try #require(first.status == 0, "\(first.stderr)")
        let after = Int64(Date().timeIntervalSince1970)

        let run = try await scratch.run(["factors", "--db", scratch.database, "--user", "hal", "--key-file", scratch.keyFile, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout.hasSuffix("\n") && run.stdout.split(separator: "\n").count == 1, "one line: \(run.stdout)")
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let factors = try #require(parsed as? [[String: Any]], "not an array of objects: \(run.stdout)")
        try #require(factors.count == 1)
        let factor = factors[0]
        #expect(Set(factor.keys) == ["id", "factorID", "displayName", "enrolledAt", "algorithm", "digits", "period"])
        #expect((factor["id"] as? String).map { first.stdout.contains("enrollment id \($0)") } == true, "\(factor)")
        #expect(factor["factorID"] as? String == "totp")
        #expect(factor["displayName"] as? String == "Work \"laptop\"")
        let enrolledAt = try #require(factor["enrolledAt"] as? NSNumber, "enrolledAt is not a number: \(run.stdout)")
        #expect((before...after).contains(enrolledAt.int64Value))
        #expect(factor["algorithm"] as? String == "SHA1")
        #expect((factor["digits"] as? NSNumber)?.intValue == 6)
        #expect((factor["period"] as? NSNumber)?.intValue == 30)
        #expect(!run.stdout.contains(first.key) && !run.stdout.lowercased().contains("secret"))
    }

    @Test("--json for a user without factors is an empty array; totp factors --json forwards")
    func emptyAndForwarded() async throws {
        let scratch = try Scratch()
        // Creates the database, so that both runs below open an existing one.
        let none = try await scratch.run(["factors", "--db", scratch.database, "--user", "ivy", "--key-file", scratch.keyFile, "--json"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout == "[]\n")
        let forwarded = try await scratch.run(
            ["factors", "--db", scratch.database, "--user", "ivy", "--key-file", scratch.keyFile, "--json"], program: "totp")
        #expect(forwarded.status == 0 && forwarded.stdout == "[]\n", "\(forwarded.stderr)")
        let plain = try await scratch.run(["factors", "--db", scratch.database, "--user", "ivy", "--key-file", scratch.keyFile], program: "totp")
        #expect(plain.stdout == "ivy has no second factor.\n")
    }
}
