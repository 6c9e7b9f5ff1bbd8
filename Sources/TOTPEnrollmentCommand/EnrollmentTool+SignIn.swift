internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPEnrollment

extension EnrollmentTool {
    /// `totp signin`: the second step of Firebase's sign-in at a terminal.
    struct SignIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signin",
            abstract: "Sign in with a TOTP second factor: ask for a code and verify it.",
            discussion: "Each code is accepted once; wrong codes count towards a temporary lock."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The user's id.")
        var user: String

        @Option(help: "The enrollment id of the factor to use (default: the first enrolled).")
        var factor: String?

        @Option(help: "The code, instead of asking for it (one attempt).")
        var code: String?

        func run() async throws {
            try await storeOptions.withService { _, service throws(CommandFailure) in
                let identity = FirstFactorIdentity(userID: user, email: nil, isEmailVerified: false, provider: .password)
                let (_, secondFactor) = try await SignInFlow.signIn(service, identity, factor: factor, code: code)
                guard let secondFactor else {
                    throw .refused(
                        "\(user) has no second factor in \(storeOptions.database): enroll one with `totp enroll --db \(storeOptions.database) --user \(user) --email ADDRESS`"
                    )
                }
                StandardStreams.writeOutput("Signed in as \(user) with TOTP second factor \(secondFactor.uid).\n")
            }
        }
    }
}
