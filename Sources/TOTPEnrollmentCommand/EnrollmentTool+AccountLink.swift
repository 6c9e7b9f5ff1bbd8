internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication

extension EnrollmentTool.Account {
    /// `totp account link`: Firebase's `user.link(with:)`, for the account `--user` names.
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Link a password or a provider's identity to an account (an anonymous one keeps its uid).",
            discussion: """
                The operator acts for the user, as `signin --user` does: the first factor is taken as \
                given, and an account with a second factor needs its code first. An identity linked to \
                another account is refused; sign in with it (`account signin`) to reach that account.
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The account's uid.")
        var user: String

        @OptionGroup(title: "Credential to link") var credentialOptions: CredentialOptions

        @OptionGroup var secondFactorOptions: SecondFactorOptions

        @OptionGroup(title: "SMS sender (phone factors)") var smsOptions: SMSOptions

        func run() async throws {
            let credential = try credentialOptions.credential(confirmingPassword: true)
            let providers = try credentialOptions.identityProviders()
            let linked = try await storeOptions.withService(sms: smsOptions, identityProviders: providers) {
                database, service throws(CommandFailure) in
                let identity = try await EnrollmentTool.Account.operatorIdentity(database, uid: user)
                let (signedIn, _) = try await secondFactorOptions.signIn(service, identity)
                do throws(AuthError) {
                    return try await signedIn.link(with: credential).user
                } catch {
                    throw CommandFailure(error)
                }
            }
            StandardStreams.writeOutput("Linked \(credential.provider) to \(user); its providers: \(EnrollmentTool.Account.providers(linked)).\n")
        }
    }

    /// `totp account unlink`: Firebase's `user.unlink(fromProvider:)`.
    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a provider's identity, or the password, from an account.",
            discussion: "As with `link`, an account with a second factor needs its code first."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The account's uid.")
        var user: String

        @Option(help: ArgumentHelp("The provider to remove: password, google.com, oidc.…", valueName: "id"))
        var provider: String

        @OptionGroup var secondFactorOptions: SecondFactorOptions

        @OptionGroup(title: "SMS sender (phone factors)") var smsOptions: SMSOptions

        func run() async throws {
            let remaining = try await storeOptions.withService(sms: smsOptions) { database, service throws(CommandFailure) in
                let identity = try await EnrollmentTool.Account.operatorIdentity(database, uid: user)
                let (signedIn, _) = try await secondFactorOptions.signIn(service, identity)
                do throws(AuthError) {
                    return try await signedIn.unlink(fromProvider: provider)
                } catch {
                    throw CommandFailure(error)
                }
            }
            StandardStreams.writeOutput("Unlinked \(provider) from \(user); its providers: \(EnrollmentTool.Account.providers(remaining)).\n")
        }
    }
}
