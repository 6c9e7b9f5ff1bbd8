import Foundation
import OTPTestUtilities
import Testing

@Suite("totp verify")
struct VerifyCommandTests {
    /// Codes of the RFC 6238 SHA-1 seed, 8 digits, around step 37037036 (time 1111111109).
    static let at1111111109 = "07081804"
    static let time = "1111111109"

    @Test("a current code is valid with offset 0")
    func current() async throws {
        let run = try await TOTPProcess.run(["verify", Self.at1111111109, Seeds.sha1, "--digits", "8", "--time", Self.time])
        #expect(run.status == 0)
        #expect(run.stdout == "valid: offset 0 (counter 37037036)\n")
        #expect(run.stderr == "")
    }

    @Test("a code from the previous and next steps is valid within the default window")
    func offsets() async throws {
        let previous = try await TOTPProcess.run(["verify", Self.at1111111109, Seeds.sha1, "--digits", "8", "--time", "1111111139"])
        #expect(previous.stdout == "valid: offset -1 (counter 37037036)\n")
        let next = try await TOTPProcess.run(["verify", Self.at1111111109, Seeds.sha1, "--digits", "8", "--time", "1111111079"])
        #expect(next.stdout == "valid: offset +1 (counter 37037036)\n")
    }

    @Test("a code two steps away is invalid with the default window and valid with --window 2")
    func window() async throws {
        let run = try await TOTPProcess.run(["verify", Self.at1111111109, Seeds.sha1, "--digits", "8", "--time", "1111111169"])
        #expect(run.status == 1)
        #expect(run.stdout == "invalid code\n")
        let wider = try await TOTPProcess.run(["verify", Self.at1111111109, Seeds.sha1, "--digits", "8", "--time", "1111111169", "--window", "2"])
        #expect(wider.status == 0)
        #expect(wider.stdout == "valid: offset -2 (counter 37037036)\n")
    }

    @Test("--behind and --ahead set the sides apart")
    func sides() async throws {
        let base = ["verify", Self.at1111111109, Seeds.sha1, "--digits", "8"]
        #expect(try await TOTPProcess.run(base + ["--time", "1111111139", "--behind", "0"]).status == 1)
        #expect(try await TOTPProcess.run(base + ["--time", "1111111079", "--ahead", "0"]).status == 1)
        #expect(
            try await TOTPProcess.run(base + ["--time", "1111111199", "--behind", "3", "--ahead", "0"]).stdout
                == "valid: offset -3 (counter 37037036)\n")
        #expect(try await TOTPProcess.run(base + ["--time", "1111111139", "--window", "0"]).status == 1)
    }

    @Test("--json prints the verdict as an object")
    func json() async throws {
        let valid = try await TOTPProcess.run(["verify", Self.at1111111109, Seeds.sha1, "--digits", "8", "--time", "1111111079", "--json"])
        #expect(valid.status == 0)
        #expect(valid.stdout == #"{"valid":true,"offset":1,"counter":37037036}"# + "\n")
        let invalid = try await TOTPProcess.run(["verify", "00000000", Seeds.sha1, "--digits", "8", "--time", Self.time, "--json"])
        #expect(invalid.status == 1)
        #expect(invalid.stdout == #"{"valid":false}"# + "\n")
    }

    @Test("a wrong code exits 1 with 'invalid code' (fast path and parser path)")
    func wrong() async throws {
        // A code unlike those of the two steps around now on each side: wrong within the default
        // window of one step even when the step changes while totp runs.
        let now = Int(Date().timeIntervalSince1970)
        var nearby: Set<String> = []
        for offset in -2...2 {
            nearby.insert(String(try await TOTPProcess.run(["code", Seeds.sha1, "--time", "\(now + 30 * offset)"]).stdout.dropLast()))
        }
        let wrongCode = try #require(["000000", "000001", "000002", "000003", "000004", "000005"].first { !nearby.contains($0) })
        let wrong = try await TOTPProcess.run(["verify", wrongCode, Seeds.sha1])
        #expect(wrong.status == 1)
        #expect(wrong.stdout == "invalid code\n")
        #expect(wrong.stderr == "")
        // The current code is valid now, when the two runs fall within the default window of one
        // step; a loaded machine can stretch them further, so a later try settles it.
        var checked = false
        for _ in 0..<3 where !checked {
            let start = ExternalTool.unixTime()
            let current = try await TOTPProcess.run(["code", Seeds.sha1]).stdout.dropLast()
            let valid = try await TOTPProcess.run(["verify", String(current), Seeds.sha1])
            guard ExternalTool.unixTime() / 30 - start / 30 <= 1 else { continue }
            checked = true
            #expect(valid.status == 0, "\(valid)")
            #expect(valid.stdout.hasPrefix("valid: offset "))
        }
        #expect(checked, "three tries each took longer than a step")
    }

    @Test("HOTP looks ahead of --counter")
    func hotp() async throws {
        let run = try await TOTPProcess.run(["verify", "359152", Seeds.sha1, "--hotp", "--counter", "1"])
        #expect(run.stdout == "valid: offset +1 (counter 2)\n")
        let far = try await TOTPProcess.run(["verify", "969429", Seeds.sha1, "--counter", "1"])
        #expect(far.status == 1)
        let ahead = try await TOTPProcess.run(["verify", "969429", Seeds.sha1, "--counter", "1", "--ahead", "5", "--json"])
        #expect(ahead.stdout == #"{"valid":true,"offset":2,"counter":3}"# + "\n")
    }
}
