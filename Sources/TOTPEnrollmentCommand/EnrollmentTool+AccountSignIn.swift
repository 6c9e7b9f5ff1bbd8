internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication

extension EnrollmentTool.Account {
    /// `totp account signin`: Firebase's `signIn(withEmail:password:)` and `signIn(with:)`, then
    /// the second factor when the account has one.
    struct SignIn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "signin",
            abstract: "Sign in with a password or a provider's ID token, then a second factor if the account has one.",
            discussion: """
                A provider's identity that no account has yet makes a new account, as Firebase does; one \
                whose verified address belongs to another account is refused (link it to that account \
                instead).
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @OptionGroup(title: "Credential") var credentialOptions: CredentialOptions

        @OptionGroup var secondFactorOptions: SecondFactorOptions

        @OptionGroup(title: "SMS sender (phone factors)") var smsOptions: SMSOptions

        func run() async throws {
            let credential = try credentialOptions.credential(confirmingPassword: false)
            var created = false
            let providers = try credentialOptions.identityProviders()
            let (user, secondFactor) = try await storeOptions.withService(sms: smsOptions, identityProviders: providers) {
                _, service throws(CommandFailure) in
                try await secondFactorOptions.signIn(as: credentialOptions.email ?? "the user") { () async throws(AuthError) in
                    let result = try await service.signIn(with: credential)
                    created = result.isNewUser
                    return result.user
                }
            }
            let account = "\(user.uid)" + (user.email.map { " (\($0))" } ?? "")
            StandardStreams.writeOutput(
                (created ? "Created account \(account) and signed in" : "Signed in as \(account)")
                    + " with \(credential.provider)\(EnrollmentTool.Account.secondStep(secondFactor)).\n")
        }
    }
}
