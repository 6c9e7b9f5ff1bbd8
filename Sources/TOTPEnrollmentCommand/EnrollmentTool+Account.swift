internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPAuthenticationDatabase

extension EnrollmentTool {
    /// `totp account`: Firebase's first factors and account linking, for an operator to try them.
    struct Account: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create accounts and sign in with a password or an ID token; link, unlink and show credentials.",
            discussion: """
                Accounts live in the same database as the second factors: a user with a TOTP or phone \
                factor is asked for a code after the first factor, as `signin` does. Passwords are asked \
                for without echo, or read with --password-file FILE (- for standard input); the database \
                keeps only their scrypt hash. Federated credentials are ID tokens checked against the \
                provider's published keys: Google's by default for --provider google.com, otherwise \
                --issuer and --jwks.
                """,
            subcommands: [Create.self, SignIn.self, Link.self, Unlink.self, Show.self, Passkeys.self, Import.self, Export.self]
        )

        /// The account `uid` as a signed-in user on the operator's word, as `signin --user` takes
        /// the first factor: link and unlink then act for the user, after its second factor.
        static func operatorIdentity(_ database: any DurableAuthStore, uid: String) async throws(CommandFailure) -> FirstFactorIdentity {
            let (account, linked) = try await database.running { store in
                (try await store.account(id: uid), try await store.providerIdentities(accountID: uid))
            }
            guard let account else {
                throw .refused(
                    "no account \(uid) in \(database.databaseName): create one with `totp account create`, or find it with `totp account show --email`"
                )
            }
            // The provider a link upgrades from: an account with neither a password nor an
            // identity is an anonymous one, which keeps its uid when it links a credential.
            let provider = account.passwordHash != nil ? .password : linked.first.map { FirstFactorProvider(rawValue: $0.providerID) } ?? .anonymous
            return FirstFactorIdentity(userID: uid, email: account.email, isEmailVerified: account.isEmailVerified, provider: provider)
        }

        /// The providers of `user`, for the one line a command prints.
        static func providers(_ user: User) -> String {
            user.providerData.isEmpty ? "none (anonymous)" : user.providerData.map(\.providerID).joined(separator: ", ")
        }

        /// How the second step went, to end a "Signed in as …" line.
        static func secondStep(_ factor: MultiFactorInfo?) -> String {
            guard let factor else { return "" }
            return switch factor.kind {
            case .recoveryCode: " and a recovery code"
            case .phone: " and phone second factor \(factor.uid)"
            case .totp: " and TOTP second factor \(factor.uid)"
            case .webauthn: " and passkey second factor \(factor.uid)"
            case nil: " and second factor \(factor.uid) (\(factor.factorID))"
            }
        }
    }
}
