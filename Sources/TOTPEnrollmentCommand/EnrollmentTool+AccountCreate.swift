internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication

extension EnrollmentTool.Account {
    /// `totp account create`: Firebase's `createUser(withEmail:password:)` and
    /// `signInAnonymously()`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account with an email address and password, or an anonymous one; print its uid.",
            discussion: "The password is asked for twice without echo unless --password-file gives it."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: ArgumentHelp("The account's email address.", valueName: "address"))
        var email: String?

        @Option(
            name: .customLong("password-file"),
            help: ArgumentHelp("Read the password from the first line of FILE (- for standard input).", valueName: "file"))
        var passwordFile: String?

        @Flag(help: "Create an anonymous account, which can link a credential later and keep its uid.")
        var anonymous = false

        func validate() throws {
            if anonymous, email != nil { throw ValidationError("--email and --anonymous are alternatives: pass one") }
            if !anonymous, email == nil { throw ValidationError("give --email ADDRESS (and a password), or --anonymous") }
            if anonymous, passwordFile != nil { throw ValidationError("--password-file goes with --email: an anonymous account has no password") }
        }

        func run() async throws {
            // Read before the database opens, so that a typo at the prompt leaves nothing behind.
            let password = try email.map { _ throws(CommandFailure) in try CredentialOptions.password(file: passwordFile, confirming: true) }
            let uid = try await storeOptions.withService { _, service throws(CommandFailure) in
                do throws(AuthError) {
                    if let email, let password { return try await service.createUser(withEmail: email, password: password).uid }
                    return try await service.signInAnonymously().uid
                } catch {
                    throw CommandFailure(error)
                }
            }
            StandardStreams.writeOutput(uid + "\n")
        }
    }
}
