import Foundation
import OTPTestUtilities
import Testing

/// `totp-enrollment enroll --phone` and `signin` with phone factors, run as a person would, with a
/// shell script of the test's playing the SMS gateway (`--sms-command`) and test numbers
/// (`--test-phone-number`) where no message is needed.
@Suite("Phone factors at the command line", .serialized)
struct PhoneCommandTests {
    static let testNumber = "+16505553434"
    static let testCode = "123456"
    static let testNumberOption = ["--test-phone-number", "\(testNumber)=\(testCode)"]

    /// A sender script that appends its arguments, one per line, to `sms.txt` in the scratch
    /// directory, or (`failing`) says why on standard error and exits 3.
    static func senderScript(_ scratch: Scratch, failing: Bool = false) throws -> (script: String, outbox: String) {
        let outbox = scratch.directory + "/sms.txt"
        let script = scratch.directory + (failing ? "/failing-sms.sh" : "/sms.sh")
        let body =
            failing
            ? "#!/bin/sh\necho 'modem offline' >&2\nexit 3\n"
            : "#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(ProcessRunner.shellQuoted(outbox))\ncat >> \(ProcessRunner.shellQuoted(outbox))\n"
        try body.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        return (script, outbox)
    }

    /// The codes of the messages the script received so far, in order.
    static func codes(in outbox: String) -> [String] {
        let text = (try? String(contentsOfFile: outbox, encoding: .utf8)) ?? ""
        return text.matches(of: #/([0-9]{6}) is your OTPKit verification code\./#).map { String($0.output.1) }
    }

    /// Waits until the script has received its `count`th message and returns that message's code.
    static func waitForCode(_ count: Int, in outbox: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let codes = codes(in: outbox)
            if codes.count >= count { return codes[count - 1] }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CancellationError()
    }

    func base(_ scratch: Scratch, _ subcommand: String, user: String) -> [String] {
        [subcommand, "--db", scratch.database, "--user", user, "--key-file", scratch.keyFile]
    }

    @Test("enroll a number in national form through --sms-command, then sign in with it: the code goes to the E.164 number")
    func enrollAndSignInThroughCommand() async throws {
        let scratch = try Scratch()
        let (script, outbox) = try Self.senderScript(scratch)
        let sms = ["--sms-command", script, "--sms-arg", "{to}", "--sms-arg", "{text}", "--phone-region", "us"]
        let enroll = try await ProcessRunner.converse(
            BuiltProduct.path("totp-enrollment"),
            base(scratch, "enroll", user: "pat") + ["--email", "pat@example.com", "--phone", "(201) 555-0123", "--name", "Work phone"] + sms
        ) { session in
            try await session.write(try await Self.waitForCode(1, in: outbox) + "\n")
        }
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(enroll.stderr == "Sent a code to (201) 555-0123.\nCode from the text message: ")
        let id = try #require(
            enroll.stdout.firstMatch(of: #/^Enrolled a phone second factor for pat: \+12015550123 \(enrollment id ([A-Za-z0-9]+)\)\.\n/#)?.output.1,
            "\(enroll.stdout)")
        #expect(try String(contentsOfFile: outbox, encoding: .utf8).hasPrefix("+12015550123\n"), "the number in E.164, as one argument")

        let signIn = try await ProcessRunner.converse(
            BuiltProduct.path("totp-enrollment"), base(scratch, "signin", user: "pat") + ["--factor", String(id), "--sms-command", script]
        ) { session in
            try await session.write("000000\n")
            try await session.write(try await Self.waitForCode(2, in: outbox) + "\n")
        }
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(signIn.stdout == "Signed in as pat with phone second factor \(id) (+1******0123).\n")
        #expect(
            signIn.stderr
                == "pat has a phone second factor 'Work phone' (+1******0123, enrollment id \(id)).\nSent a code to +1******0123.\n"
                + "Code from the text message: wrong code: enter the code of the text message\nCode from the text message: ",
            "a wrong code is refused and asked again")
    }

    @Test("test numbers need no sender; `totp enroll --phone` and `totp signin` forward")
    func testNumbers() async throws {
        let scratch = try Scratch()
        let enroll = try await scratch.run(
            base(scratch, "enroll", user: "tess") + ["--email", "tess@example.com", "--phone", Self.testNumber, "--code", Self.testCode]
                + Self.testNumberOption,
            program: "totp")
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(enroll.stderr == "")
        #expect(enroll.stdout.hasPrefix("Enrolled a phone second factor for tess: \(Self.testNumber) (enrollment id "), "\(enroll.stdout)")

        let signIn = try await scratch.run(
            base(scratch, "signin", user: "tess") + ["--code", Self.testCode] + Self.testNumberOption, program: "totp")
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(signIn.stdout.hasPrefix("Signed in as tess with phone second factor "), "\(signIn.stdout)")

        let listing = try await scratch.run(["factors", "--db", scratch.database, "--user", "tess", "--key-file", scratch.keyFile])
        #expect(
            listing.stdout.wholeMatch(of: #/[A-Za-z0-9]{15}  phone  -  enrolled [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z  \+16505553434\n/#) != nil,
            "\(listing)")
        let json = try await scratch.run(["factors", "--db", scratch.database, "--user", "tess", "--key-file", scratch.keyFile, "--json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json)")
        #expect(parsed.count == 1)
        #expect(Set(parsed[0].keys) == ["id", "factorID", "displayName", "enrolledAt", "phoneNumber"])
        #expect(parsed[0]["factorID"] as? String == "phone")
        #expect(parsed[0]["phoneNumber"] as? String == Self.testNumber)

        // Without the test number, its code would have to be sent: no sender is a usage error.
        let noSender = try await scratch.run(base(scratch, "signin", user: "tess") + ["--code", Self.testCode])
        #expect(noSender.status == 64)
        #expect(
            noSender.stderr
                == "totp signin: no SMS sender: pass --sms-command PROGRAM, --sms-webhook URL, --sms-twilio-account SID or --sms-log (or use a --test-phone-number)\n"
        )
    }

    @Test("a user with TOTP and phone factors picks either from the list, or names one with --factor")
    func choosingAmongFactors() async throws {
        let scratch = try Scratch()
        let totp = try await scratch.enroll(user: "max", email: "max@example.com")
        try #require(totp.status == 0, "\(totp.stderr)")
        let totpID = try #require(totp.stdout.firstMatch(of: #/enrollment id ([A-Za-z0-9]+)/#)?.output.1)

        // The new factor needs a full sign-in first: the TOTP factor's next code.
        let now = Int64(Date().timeIntervalSince1970)
        let phone = try await ProcessRunner.run(
            BuiltProduct.path("totp-enrollment"),
            base(scratch, "enroll", user: "max") + [
                "--email", "max@example.com", "--phone", Self.testNumber, "--name", "Phone", "--code", Self.testCode,
            ]
                + Self.testNumberOption,
            input: try await oathtool(base32: totp.key, at: now + 30) + "\n")
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(phone.stderr.contains("Code from your authenticator app: "), "\(phone.stderr)")
        let phoneID = try #require(phone.stdout.firstMatch(of: #/enrollment id ([A-Za-z0-9]+)/#)?.output.1, "\(phone.stdout)")

        let byList = try await ProcessRunner.run(
            BuiltProduct.path("totp-enrollment"), base(scratch, "signin", user: "max") + Self.testNumberOption, input: "3\n2\n\(Self.testCode)\n")
        #expect(byList.status == 0, "\(byList.stderr)")
        #expect(byList.stdout.hasPrefix("Signed in as max with phone second factor \(phoneID) (+"), "\(byList.stdout)")
        let listing = byList.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(listing.first == "max has 2 second factors:")
        #expect(listing.dropFirst().first == "  1. TOTP  -  enrollment id \(totpID)")
        let phoneLine = try #require(listing.dropFirst(2).first)
        #expect(phoneLine.hasPrefix("  2. phone  Phone  +") && phoneLine.hasSuffix("3434  enrollment id \(phoneID)"), "\(phoneLine)")
        #expect(!byList.stderr.contains(Self.testNumber), "the list masks the number")
        #expect(byList.stderr.contains("Which one? [1-2]: Enter a number from 1 to 2, or an enrollment id.\nWhich one? [1-2]: Sent a code to +"))

        let totpCode = try await oathtool(base32: totp.key, at: now + 60)
        let byListTOTP = try await ProcessRunner.run(
            BuiltProduct.path("totp-enrollment"), base(scratch, "signin", user: "max"), input: "1\n\(totpCode)\n")
        #expect(byListTOTP.status == 0, "\(byListTOTP.stderr)")
        #expect(byListTOTP.stdout == "Signed in as max with TOTP second factor \(totpID).\n")

        let byFactor = try await scratch.run(
            base(scratch, "signin", user: "max") + ["--factor", String(phoneID), "--code", Self.testCode] + Self.testNumberOption)
        #expect(byFactor.status == 0, "\(byFactor.stderr)")
        #expect(byFactor.stdout.hasPrefix("Signed in as max with phone second factor \(phoneID) "))
        let byFactorTOTP = try await scratch.run(
            base(scratch, "signin", user: "max") + ["--factor", String(totpID), "--code", try await oathtool(base32: totp.key, at: now + 90)])
        #expect(byFactorTOTP.stdout == "Signed in as max with TOTP second factor \(totpID).\n", "\(byFactorTOTP.stderr)")

        let unanswered = try await scratch.run(base(scratch, "signin", user: "max"))
        #expect(unanswered.status == 1)
        #expect(
            unanswered.stderr.hasSuffix("Which one? [1-2]: \ntotp signin: no factor chosen: run the command again, or pick one with --factor ID\n"))
    }

    @Test("a number libphonenumber refuses is bad input (64), with the service's reason")
    func badNumber() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            base(scratch, "enroll", user: "bea") + ["--email", "bea@example.com", "--phone", "+1 201 555", "--sms-log"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "totp enroll: the number has too few digits for its country: check for a missing digit or area code [INVALID_PHONE_NUMBER, 17042]\n"
        )
    }

    @Test("a sender that fails: the program's exit status and first line of standard error, exit 69, nothing enrolled")
    func failingSender() async throws {
        let scratch = try Scratch()
        let (script, _) = try Self.senderScript(scratch, failing: true)
        let result = try await scratch.run(
            base(scratch, "enroll", user: "fay") + ["--email", "fay@example.com", "--phone", "+12015550123", "--sms-command", script])
        #expect(result.status == 69)
        #expect(
            result.stderr
                == "totp enroll: the text message with the code could not be sent: the command SMS sender refused the message: exit status 3: modem offline\n"
        )
        let unreachable = try await scratch.run(
            base(scratch, "enroll", user: "fay") + ["--email", "fay@example.com", "--phone", "+12015550123", "--sms-webhook", "http://127.0.0.1:9/"])
        #expect(unreachable.status == 69)
        #expect(
            unreachable.stderr.hasPrefix(
                "totp enroll: the text message with the code could not be sent: the webhook SMS sender could not be reached: "),
            "\(unreachable.stderr)")
    }

    @Test("Twilio: the token comes from a file, never an argument, and the base URL can point elsewhere")
    func twilioTokenFile() async throws {
        let scratch = try Scratch()
        let tokenFile = scratch.directory + "/twilio.token"
        try "secret-token-value\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let result = try await scratch.run(
            base(scratch, "enroll", user: "tia") + [
                "--email", "tia@example.com", "--phone", "+12015550123", "--sms-twilio-account", "AC123", "--sms-from", "+15555550100",
                "--sms-twilio-token-file", tokenFile, "--sms-twilio-base-url", "http://127.0.0.1:9",
            ])
        #expect(result.status == 69)
        #expect(
            result.stderr.hasPrefix("totp enroll: the text message with the code could not be sent: the twilio SMS sender could not be reached: "),
            "\(result.stderr)")
        #expect(!result.stderr.contains("secret-token-value"))
    }

    @Test("--sms-log prints the message, code included, to standard error")
    func logSender() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            base(scratch, "enroll", user: "lou") + ["--email", "lou@example.com", "--phone", "+12015550123", "--sms-log"])
        #expect(result.status == 1, "no code typed (end of input)")
        #expect(result.stderr.contains(#/SMS to \+1\*{6}0123: [0-9]{6} is your OTPKit verification code\./#), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("totp enroll: no code entered: nothing was enrolled\n"))
    }

    @Test(
        "sender options that cannot work are usage errors (64); a missing Twilio token is missing input (66)",
        arguments: [
            (
                ["--phone", "+12015550123"], 64,
                "no SMS sender: pass --sms-command PROGRAM, --sms-webhook URL, --sms-twilio-account SID or --sms-log (or use a --test-phone-number)"
            ),
            (
                ["--phone", "+12015550123", "--sms-log", "--sms-webhook", "https://example.com/"], 64,
                "--sms-webhook, --sms-log are alternatives: pass one SMS sender"
            ),
            (["--sms-arg", "{to}"], 64, "--sms-arg and --sms-env configure --sms-command: pass it too"),
            (["--sms-env", "GATEWAY_TOKEN"], 64, "--sms-arg and --sms-env configure --sms-command: pass it too"),
            (["--sms-twilio-account", "AC123"], 64, "--sms-twilio-account needs --sms-from NUMBER, the Twilio number the messages come from"),
            (["--sms-webhook", "https://example.com/", "--sms-header", "no colon"], 64, "--sms-header \"no colon\" is not 'Name: value'"),
            (
                ["--test-phone-number", "+16505553434=12"], 64,
                "--test-phone-number: phone settings: the code of a test phone number must be six digits"
            ),
            (
                ["--phone", "+12015550123", "--sms-command", "no-such-sms-program"], 64,
                "--sms-command: no program no-such-sms-program in PATH: give its path"
            ),
            (
                ["--phone", "+12015550123", "--sms-command", "/bin/true", "--sms-arg", "{text}"], 64,
                "the command SMS sender is misconfigured: the arguments must contain the number ({to}); the message goes to standard input unless they contain {text}"
            ),
            (["--code", "123456"], 64, "--code is the code of the text message: it goes with --phone"),
            (
                ["--phone", "+12015550123", "--sms-twilio-account", "AC123", "--sms-from", "+15555550100"], 66,
                "no Twilio auth token: pass --sms-twilio-token-file FILE or set TWILIO_AUTH_TOKEN"
            ),
        ] as [([String], Int32, String)])
    func badOptions(options: [String], status: Int32, message: String) async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            base(scratch, "enroll", user: "opt") + ["--email", "opt@example.com"] + options, environment: ["TWILIO_AUTH_TOKEN": ""])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr == "totp enroll: \(message)\n")
    }
}
