internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthenticationDatabase
internal import OTPAuthentication

extension EnrollmentTool {
    /// `totp recovery-codes`: how many unused recovery codes a user has, or (`--generate`) a new
    /// set, shown once.
    struct RecoveryCodes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes",
            abstract: "Count a user's unused recovery codes, or generate a new set of ten.",
            discussion: """
                --generate signs the user in first (with a second factor: a code is asked for, or pass \
                --code or --recovery-code), then prints the ten codes, one per line. They are shown \
                once and replace any earlier set. `signin --recovery-code CODE` spends one.
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The user's id.")
        var user: String

        @Flag(help: "Generate a new set, voiding the old one, and print it.")
        var generate = false

        @OptionGroup var secondFactorOptions: SecondFactorOptions

        @OptionGroup(title: "SMS sender (phone factors)") var smsOptions: SMSOptions

        @Flag(help: #"Print {"remaining":N}, or with --generate {"codes":["…", …]}."#)
        var json = false

        func validate() throws {
            guard generate || secondFactorOptions.isEmpty else {
                throw ValidationError("--factor, --code and --recovery-code sign in for --generate: counting needs no sign-in")
            }
        }

        func run() async throws {
            if generate {
                try await generateCodes()
            } else {
                try await count()
            }
        }

        /// Counts from the store, as `factors` lists from it: an operator's look that needs no
        /// sign-in, so it asks for no code and spends none.
        private func count() async throws(CommandFailure) {
            let remaining = try await storeOptions.withDatabase { database throws(CommandFailure) in
                try await database.running { store in try await store.recoveryCodeCount(userID: user) }
            }
            if json {
                var object = JSONObject()
                object.add("remaining", remaining)
                StandardStreams.writeOutput(object.text + "\n")
            } else {
                StandardStreams.writeOutput("\(user) has \(Self.unused(remaining)).\n")
            }
        }

        /// Generating needs a signed-in user (the service requires a recent sign-in), as a host
        /// application would have one.
        private func generateCodes() async throws(CommandFailure) {
            let codes = try await storeOptions.withService(sms: smsOptions) { database, service throws(CommandFailure) in
                let identity = FirstFactorIdentity(userID: user, email: nil, isEmailVerified: false, provider: .password)
                let (signedIn, secondFactor) = try await secondFactorOptions.signIn(service, identity)
                guard secondFactor != nil else {
                    // Only a sign-in that asks for a second factor can take a recovery code.
                    try? await signedIn.signOut()
                    throw .refused(
                        "\(user) has no second factor in \(database.databaseName), so recovery codes would never be asked for: enroll one with `totp enroll --db \(storeOptions.location.shownArgument) --user \(user) --email ADDRESS`"
                    )
                }
                let codes: [String]
                do throws(AuthError) {
                    codes = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await signedIn.multiFactor.session())
                } catch {
                    throw CommandFailure(error)
                }
                // The session existed only to allow this; the codes are stored whether or not it
                // ends cleanly, so a failure here must not hide them.
                try? await signedIn.signOut()
                return codes
            }
            StandardStreams.writeError(
                "These \(codes.count) recovery codes are shown once and replace any earlier set: store them somewhere safe, apart from the authenticator.\n"
            )
            if json {
                var object = JSONObject()
                object.add("codes", codes)
                StandardStreams.writeOutput(object.text + "\n")
            } else {
                StandardStreams.writeOutput(codes.map { $0 + "\n" }.joined())
            }
        }

        /// `9 unused recovery codes`, `1 unused recovery code`, `no unused recovery codes`.
        static func unused(_ count: Int) -> String {
            switch count {
            case 0: "no unused recovery codes"
            case 1: "1 unused recovery code"
            default: "\(count) unused recovery codes"
            }
        }
    }
}
