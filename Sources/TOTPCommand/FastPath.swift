internal import OTPCore

/// Runs the two invocations scripts make once per code — `totp code [SECRET]` and
/// `totp verify CODE [SECRET]`, secret as an argument or in `TOTP_SECRET`, no options — without
/// ArgumentParser.
///
/// ArgumentParser builds its model of the commands by reflection on every start: about 10 million
/// instructions (2 ms), mostly the Swift runtime scanning every protocol conformance record in the
/// binary for each property wrapper it casts, several times what computing and printing the code
/// costs. The issue asks `totp code SECRET` to start within twice `oathtool`'s time. Only the
/// exact shapes above take this path, and only when everything succeeds; anything else (an option,
/// a bad secret, a malformed code) returns `nil` and goes through the parser, so the output and
/// the error messages are the same either way. Printing goes through the same functions.
enum FastPath {
    /// The exit status when the fast path handled the invocation, or `nil` to parse normally.
    static func run(_ arguments: [String]) -> Int32? {
        guard let command = arguments.first, arguments.allSatisfy({ !$0.hasPrefix("-") }) else { return nil }
        switch (command, arguments.count) {
        case ("code", 1), ("code", 2):
            guard let totp = totp(secret: arguments.count == 2 ? arguments[1] : nil),
                  let text = try? TOTPTool.Code.output(
                    .totp(totp, time: TOTP.currentUnixTime()),
                    next: 0, json: false, terminal: Console.standardOutputIsTerminal)
            else { return nil }
            Console.writeOutput(text)
            return 0
        case ("verify", 2), ("verify", 3):
            guard let totp = totp(secret: arguments.count == 3 ? arguments[2] : nil) else { return nil }
            let match: TOTPMatch?
            do {
                match = try totp.verify(arguments[1], at: TOTP.currentUnixTime(), window: .oneStep)
            } catch {
                // A malformed code gets the full path's message.
                return nil
            }
            do { try TOTPTool.Verify.report(match.map { ($0.offset, $0.step) }, json: false) } catch { return error.rawValue }
            return 0
        default:
            return nil
        }
    }

    private static func totp(secret argument: String?) -> TOTP? {
        guard let text = argument ?? Console.environment(OTPOptions.environmentVariable),
              let secret = try? OTPSecret(base32: Substring(text).trimmingSpaces)
        else { return nil }
        return try? TOTP(secret: secret)
    }
}
