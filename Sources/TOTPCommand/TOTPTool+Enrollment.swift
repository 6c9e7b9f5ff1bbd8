internal import ArgumentParser
internal import OTPCommandSupport

extension TOTPTool {
    /// `totp enroll`, `signin`, `recovery-codes`, `reseal`, `factors`, `keygen` and `account` run
    /// `totp-enrollment`, installed beside `totp`: it links Foundation, SwiftNIO, SQLite and PostgreSQL, which
    /// would slow every `totp code`.
    ///
    /// `main()` hands these commands over before parsing; the types here put them in `totp --help`.
    enum Enrollment {
        static let program = "totp-enrollment"
        static let commands: [any ParsableCommand.Type] = [
            Enroll.self, SignIn.self, RecoveryCodes.self, Reseal.self, Factors.self, Keygen.self, Account.self,
        ]

        static func handles(_ arguments: [String]) -> Bool {
            guard let first = arguments.first else { return false }
            return commands.contains { $0.configuration.commandName == first }
        }

        /// Replaces this process with `totp-enrollment ARGUMENTS…`; returns only on failure.
        static func execute(_ arguments: [String]) -> CommandFailure {
            Companion.execute(program, arguments)
        }
    }

    struct Enroll: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll", abstract: "Enroll a TOTP or phone second factor on an SQLite or PostgreSQL database (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct SignIn: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signin", abstract: "Sign in with a second factor or a recovery code (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct RecoveryCodes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes", abstract: "Count or generate a user's recovery codes (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct Reseal: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reseal", abstract: "Re-seal enrolled secrets under the current key (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct Factors: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "factors", abstract: "List a user's enrolled second factors (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen", abstract: "Write a new sealing key (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct Account: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account",
            abstract: "Create accounts, sign in with a password or an ID token, link and unlink credentials (runs totp-enrollment).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }
}
