internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthenticationDatabase
internal import OTPAuthentication

extension EnrollmentTool {
    /// `totp signin`: the second step of Firebase's sign-in at a terminal.
    struct SignIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signin",
            abstract: "Sign in with a second factor (TOTP or phone): ask for a code and verify it.",
            discussion: """
                Each code is accepted once; wrong codes count towards a temporary lock. A user with \
                several factors is asked which one to use, unless --factor picks it. For a phone factor \
                a code is sent by text message first, through the --sms-… sender. --recovery-code \
                signs in with one of the user's recovery codes instead (see `recovery-codes`).
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The user's id.")
        var user: String

        @OptionGroup var secondFactorOptions: SecondFactorOptions

        @OptionGroup(title: "SMS sender (phone factors)") var smsOptions: SMSOptions

        func run() async throws {
            try await storeOptions.withService(sms: smsOptions) { database, service throws(CommandFailure) in
                let identity = FirstFactorIdentity(userID: user, email: nil, isEmailVerified: false, provider: .password)
                let (signedIn, secondFactor) = try await secondFactorOptions.signIn(service, identity)
                guard let secondFactor else {
                    throw .refused(
                        "\(user) has no second factor in \(database.databaseName): enroll one with `totp enroll --db \(storeOptions.location.shownArgument) --user \(user) --email ADDRESS`"
                    )
                }
                switch secondFactor.kind {
                case .phone:
                    StandardStreams.writeOutput(
                        "Signed in as \(user) with phone second factor \(secondFactor.uid) (\(secondFactor.phoneNumber ?? "?")).\n")
                    return
                case .totp:
                    StandardStreams.writeOutput("Signed in as \(user) with TOTP second factor \(secondFactor.uid).\n")
                    return
                case .webauthn:
                    StandardStreams.writeOutput("Signed in as \(user) with passkey second factor \(secondFactor.uid).\n")
                    return
                case nil:
                    StandardStreams.writeOutput("Signed in as \(user) with second factor \(secondFactor.uid) (\(secondFactor.factorID)).\n")
                    return
                case .recoveryCode:
                    break
                }
                // The count tells the person whether it is time to generate a new set; the sign-in
                // has already succeeded, so failing to count must not turn it into a failure.
                let remaining = try? await signedIn.multiFactor.recoveryCodeCount()
                StandardStreams.writeOutput(
                    "Signed in as \(user) with a recovery code" + (remaining.map { "; \(RecoveryCodes.unused($0)) left" } ?? "") + ".\n")
            }
        }
    }
}
