import Foundation
import OTPTestUtilities
import Testing

@Suite("totp code")
struct CodeCommandTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let time: Int64
        let algorithm: String
        let code: String
        var secret: String {
            switch algorithm {
            case "SHA256": Seeds.sha256
            case "SHA512": Seeds.sha512
            default: Seeds.sha1
            }
        }
        var testDescription: String { "\(algorithm) at \(time)" }
    }

    /// RFC 6238 Appendix B, from TestVectors/rfc6238-totp.json.
    static func rfc6238() throws -> [Vector] {
        try TestVectors.totp().vectors.map { Vector(time: $0.time, algorithm: $0.algorithm, code: $0.code) }
    }

    @Test("the example from the issue prints 94287082")
    func issueExample() async throws {
        let run = try await TOTPProcess.run(["code", Seeds.sha1, "--digits", "8", "--time", "59"])
        #expect(run.status == 0)
        #expect(run.stdout == "94287082\n")
        #expect(run.stderr == "")
    }

    @Test("RFC 6238 Appendix B: every time and algorithm", arguments: try rfc6238())
    func rfc6238Vector(_ vector: Vector) async throws {
        let run = try await TOTPProcess.run([
            "code", vector.secret, "--algorithm", vector.algorithm.lowercased(), "--digits", "8", "--time", "\(vector.time)",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == vector.code + "\n")
    }

    @Test(
        "ISO 8601 times give the same code as Unix seconds",
        arguments: [
            ("2005-03-18T01:58:29Z", "1111111109"),
            ("2005-03-18T01:58:29.999Z", "1111111109"),
            ("2005-03-18t01:58:29z", "1111111109"),
            ("2005-03-18 02:58:29+01:00", "1111111109"),
            ("2005-03-17T21:28:29-0430", "1111111109"),
            ("2033-05-18T03:33:20Z", "2000000000"),
            ("2603-10-11T11:33:20Z", "20000000000"),
            ("1970-01-01T00:00:59Z", "59"),
            ("2009-02-13", "1234483200"),
        ])
    func isoTimes(iso: String, unix: String) async throws {
        let viaISO = try await TOTPProcess.run(["code", Seeds.sha1, "--digits", "8", "--time", iso])
        let viaUnix = try await TOTPProcess.run(["code", Seeds.sha1, "--digits", "8", "--time", unix])
        #expect(viaISO.status == 0, "\(viaISO)")
        #expect(viaISO.stdout == viaUnix.stdout)
        #expect(viaISO.stdout.count == 9)
    }

    @Test("--json prints the documented object")
    func json() async throws {
        let run = try await TOTPProcess.run(["code", Seeds.sha1, "--digits", "8", "--time", "2005-03-18T01:58:29Z", "--json"])
        #expect(run.status == 0)
        #expect(
            run.stdout
                == #"{"code":"07081804","counter":37037036,"period":30,"validFrom":"2005-03-18T01:58:00Z","validUntil":"2005-03-18T01:58:30Z","secondsRemaining":1}"#
                + "\n")
    }

    @Test("--json with --period 60 and --next")
    func jsonNext() async throws {
        let run = try await TOTPProcess.run(["code", Seeds.sha1, "--period", "60", "--time", "120", "--json", "--next", "2"])
        let single = try await TOTPProcess.run(["code", Seeds.sha1, "--period", "60", "--time", "120"])
        let later1 = try await TOTPProcess.run(["code", Seeds.sha1, "--period", "60", "--time", "180"])
        let later2 = try await TOTPProcess.run(["code", Seeds.sha1, "--period", "60", "--time", "240"])
        let expected =
            #"{"code":"\#(single.stdout.dropLast())","counter":2,"period":60,"validFrom":"1970-01-01T00:02:00Z","validUntil":"1970-01-01T00:03:00Z","secondsRemaining":60,"next":["\#(later1.stdout.dropLast())","\#(later2.stdout.dropLast())"]}"#
        #expect(run.stdout == expected + "\n")
    }

    @Test("--next N prints N more codes, one per line, when not on a terminal")
    func next() async throws {
        let run = try await TOTPProcess.run(["code", Seeds.sha1, "--digits", "8", "--time", "59", "--next", "3"])
        var expected: [String] = []
        for time in [59, 89, 119, 149] {
            expected.append(try await TOTPProcess.run(["code", Seeds.sha1, "--digits", "8", "--time", "\(time)"]).stdout)
        }
        #expect(run.stdout == expected.joined())
        #expect(run.stdout.split(separator: "\n").count == 4)
    }

    @Test("without --time the code is the current one")
    func now() async throws {
        let start = ExternalTool.unixTime()
        let run = try await TOTPProcess.run(["code", Seeds.sha1])
        let end = ExternalTool.unixTime()
        #expect(run.status == 0)
        #expect(run.stdout.utf8.count == 7)
        // oathtool's code for a step of the run: a loaded machine may take longer than a step.
        #expect(try await ExternalTool.oathtoolCodes(base32: Seeds.sha1, from: start, through: end).contains(String(run.stdout.dropLast())))
    }

    @Test("the option-free fast path prints what the parser path prints")
    func fastPathAgrees() async throws {
        for secret in [Seeds.sha1, "jbsw y3dp ehpk 3pxp", "JBSW-Y3DP-EHPK-3PXP"] {
            // The three runs must fall in one 30-second step to be comparable; a step boundary
            // between them is rare, so a second try settles it, and a third failure is reported.
            var compared = false
            for _ in 0..<3 where !compared {
                let step = Int(Date().timeIntervalSince1970) / 30
                let fast = try await TOTPProcess.run(["code", secret])
                let parsed = try await TOTPProcess.run(["code", secret, "--algorithm", "sha1"])
                let env = try await TOTPProcess.run(["code"], environment: ["TOTP_SECRET": secret])
                guard Int(Date().timeIntervalSince1970) / 30 == step else { continue }
                compared = true
                let expected = try await TOTPProcess.run(["code", secret, "--time", "\(step * 30)"])
                #expect(fast.status == 0 && parsed.status == 0 && env.status == 0)
                #expect(expected.stdout.utf8.count == 7)
                #expect(fast.stdout == expected.stdout, "\(secret)")
                #expect(parsed.stdout == expected.stdout, "\(secret)")
                #expect(env.stdout == expected.stdout, "\(secret)")
            }
            #expect(compared, "every try straddled a step boundary")
        }
    }

    @Test("RFC 4226 HOTP codes with --hotp --counter and with --counter alone")
    func hotp() async throws {
        let codes = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for (counter, code) in codes.enumerated() {
            let run = try await TOTPProcess.run(["code", Seeds.sha1, "--hotp", "--counter", "\(counter)"])
            #expect(run.stdout == code + "\n", "counter \(counter): \(run)")
        }
        let alone = try await TOTPProcess.run(["code", Seeds.sha1, "--counter", "9"])
        #expect(alone.stdout == "520489\n")
        let next = try await TOTPProcess.run(["code", Seeds.sha1, "--counter", "0", "--next", "2", "--json"])
        #expect(next.stdout == #"{"code":"755224","counter":0,"next":["287082","359152"]}"# + "\n")
    }

    @Test("--digits 10 and SHA-512 work together")
    func tenDigits() async throws {
        let run = try await TOTPProcess.run(["code", Seeds.sha512, "--algorithm", "SHA-512", "--digits", "10", "--time", "59"])
        #expect(run.status == 0)
        #expect(run.stdout.count == 11)
        #expect(run.stdout.hasSuffix("90693936\n"))
    }

    // The texts themselves are checked in-process (HelpSnapshotTests); this checks that main()
    // sends what ArgumentParser reports as a clean exit to standard output with status 0.
    @Test("--help, --version and completion scripts print on standard output and exit 0")
    func helpAndCompletions() async throws {
        for arguments in [["code", "--help"], ["--help"], ["--version"], ["--generate-completion-script", "bash"]] {
            let run = try await TOTPProcess.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.stderr == "", "\(arguments): \(run)")
            #expect(!run.stdout.isEmpty, "\(arguments): \(run)")
        }
        #expect(try await TOTPProcess.run(["code", "--help"]).stdout.hasPrefix("OVERVIEW: Print the current code"))
        let version = try await TOTPProcess.run(["--version"]).stdout
        #expect(version.wholeMatch(of: #/[0-9]+\.[0-9]+\.[0-9]+\n/#) != nil, "\(version)")
    }
}
