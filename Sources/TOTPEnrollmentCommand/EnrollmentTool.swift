internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPSealing

/// `totp-enrollment`: the multi-factor flow end to end on an SQLite or PostgreSQL database, from a
/// terminal.
///
/// `totp enroll`, `totp signin`, `totp recovery-codes` and the other enrollment commands run this
/// program (it is installed beside `totp`). It is a separate executable because it links Foundation, SwiftNIO, SQLite and PostgreSQL's driver, whose
/// start-up cost every process would pay, and `totp code` must start about as fast as `oathtool`.
@main
struct EnrollmentTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp-enrollment",
        abstract: "Enroll a TOTP or phone second factor and sign in with it, on an SQLite or PostgreSQL database with sealed secrets.",
        discussion: """
            `enroll`, `signin`, `recovery-codes` and `factors` take the host application's first factor \
            as passed and play the second step of Firebase-style multi-factor sign-in; `account` plays \
            the first step too (passwords, ID tokens) and links credentials.

            Secrets are sealed with AES-256-GCM under a 32-byte key from --key-file FILE or the \
            environment variable \(SealingKey.defaultEnvironmentVariable). Create one with `openssl rand -hex 32 > otpkit.key` \
            and keep it: without it the enrolled secrets cannot be opened.

            --db takes an SQLite file or a PostgreSQL URL (postgres://user@host:port/database, or \
            postgresql://…); libpq's variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE, \
            PGOPTIONS, …) give what the URL leaves out, so the password can stay off the command line.

            Exit status: 0 success, 1 code refused or sign-in failed, 64 bad input or usage, 66 no \
            key or unreadable key, 69 text message not sent, 70 internal failure, 73 key file not \
            written, 74 database error (a PostgreSQL server out of reach or refusing the login too).
            """,
        subcommands: [Enroll.self, SignIn.self, RecoveryCodes.self, Reseal.self, Factors.self, Keygen.self, Account.self]
    )

    /// Reports failures as one line (`totp enroll: …`) rather than ArgumentParser's usage dump,
    /// as `totp` does: `totp enroll` hands its arguments over, so the messages name `totp`.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitReporting(error, command: commandPath(for: arguments, root: "totp"))
        }
    }
}
