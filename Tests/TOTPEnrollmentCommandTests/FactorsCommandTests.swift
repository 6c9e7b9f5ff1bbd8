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
    func readableTime() throws {
        let scratch = try Scratch()
        let before = Int64(Date().timeIntervalSince1970)
        let enrolled = try scratch.enroll(user: "gina", email: "gina@example.com", subcommand: ["enroll", "--name", "Phone"])
        let after = Int64(Date().timeIntervalSince1970)
        try #require(enrolled.status == 0, "\(enrolled.errors)")

        let listing = try scratch.run(["factors", "--db", scratch.database, "--user", "gina", "--key-file", scratch.keyFile])
        #expect(listing.status == 0, "\(listing.errors)")
        let line = try #require(listing.output.split(separator: "\n").first)
        let time = try #require(line.split(separator: " ").first { $0.hasPrefix("20") && $0.hasSuffix("Z") }, "no ISO 8601 time in \(line)")
        #expect(time.count == "2026-11-23T14:50:33Z".count && time.dropFirst(10).first == "T", "\(time)")
        let seconds = try #require(Self.unixTime(iso8601: time), "\(time) is not ISO 8601")
        #expect((before...after).contains(seconds), "\(time) is not the enrollment time")
        #expect(!line.contains(String(seconds)), "raw Unix seconds in \(line)")
        #expect(line.contains("Phone") && line.contains("SHA1/6/30s"))
        #expect(!listing.output.contains(enrolled.key))
    }

    @Test("--json lists every factor as an object with numbers kept as numbers, and no secret")
    func json() throws {
        let scratch = try Scratch()
        let before = Int64(Date().timeIntervalSince1970)
        let first = try scratch.enroll(user: "hal", email: "hal@example.com", subcommand: ["enroll", "--name", "Work \"laptop\""])
        try #require(first.status == 0, "\(first.errors)")
        let after = Int64(Date().timeIntervalSince1970)

        let run = try scratch.run(["factors", "--db", scratch.database, "--user", "hal", "--key-file", scratch.keyFile, "--json"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors == "")
        #expect(run.output.hasSuffix("\n") && run.output.split(separator: "\n").count == 1, "one line: \(run.output)")
        let parsed = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
        let factors = try #require(parsed as? [[String: Any]], "not an array of objects: \(run.output)")
        try #require(factors.count == 1)
        let factor = factors[0]
        #expect(Set(factor.keys) == ["id", "factorID", "displayName", "enrolledAt", "algorithm", "digits", "period"])
        #expect((factor["id"] as? String).map { first.output.contains("enrollment id \($0)") } == true, "\(factor)")
        #expect(factor["factorID"] as? String == "totp")
        #expect(factor["displayName"] as? String == "Work \"laptop\"")
        let enrolledAt = try #require(factor["enrolledAt"] as? NSNumber, "enrolledAt is not a number: \(run.output)")
        #expect((before...after).contains(enrolledAt.int64Value))
        #expect(factor["algorithm"] as? String == "SHA1")
        #expect((factor["digits"] as? NSNumber)?.intValue == 6)
        #expect((factor["period"] as? NSNumber)?.intValue == 30)
        #expect(!run.output.contains(first.key) && !run.output.lowercased().contains("secret"))
    }

    @Test("--json for a user without factors is an empty array; totp factors --json forwards")
    func emptyAndForwarded() throws {
        let scratch = try Scratch()
        // Creates the database, so that both runs below open an existing one.
        let none = try scratch.run(["factors", "--db", scratch.database, "--user", "ivy", "--key-file", scratch.keyFile, "--json"])
        #expect(none.status == 0, "\(none.errors)")
        #expect(none.output == "[]\n")
        let forwarded = try scratch.run(["factors", "--db", scratch.database, "--user", "ivy", "--key-file", scratch.keyFile, "--json"], program: "totp")
        #expect(forwarded.status == 0 && forwarded.output == "[]\n", "\(forwarded.errors)")
        let plain = try scratch.run(["factors", "--db", scratch.database, "--user", "ivy", "--key-file", scratch.keyFile], program: "totp")
        #expect(plain.output == "ivy has no second factor.\n")
    }
}
