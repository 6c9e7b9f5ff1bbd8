internal import OTPCore
internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthenticationDatabase
internal import OTPAuthentication

extension EnrollmentTool.Account {
    /// `totp account show`: an account's record and linked identities, never its password hash.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show an account: address, state, times and linked providers (never the password hash).",
            discussion: "Times are UTC; --json gives them as Unix seconds. `totp factors --user UID` lists its second factors."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The account's uid.")
        var user: String?

        @Option(help: ArgumentHelp("The account's email address, instead of its uid.", valueName: "address"))
        var email: String?

        @Flag(
            help:
                #"Print {"uid":"…","email":…,"emailVerified":BOOL,"displayName":…,"photoURL":…,"disabled":BOOL,"createdAt":SECONDS,"lastSignInAt":SECONDS,"providerData":[{"providerId":"…","uid":"…","email":…,"displayName":…,"phoneNumber":…}]}."#
        )
        var json = false

        func validate() throws {
            if (user == nil) == (email == nil) { throw ValidationError("give --user UID or --email ADDRESS") }
        }

        func run() async throws {
            var address: String?
            if let email {
                guard let normalized = EmailAddress.normalized(email) else {
                    throw CommandFailure.usage("--email \(email) is not an email address: give one such as name@example.com")
                }
                address = normalized
            }
            let (account, linked, databaseName) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                try await database.running { store in
                    let account = if let address { try await store.account(email: address) } else { try await store.account(id: user ?? "") }
                    let linked = if let account { try await store.providerIdentities(accountID: account.id) } else { [ProviderIdentity]() }
                    return (account, linked, database.databaseName)
                }
            }
            guard let account else {
                throw CommandFailure.refused("no account \(address ?? user ?? "") in \(databaseName)")
            }
            let identities = account.providerData(linked: linked)
            StandardStreams.writeOutput(json ? Self.json(account, identities) + "\n" : Self.listing(account, identities))
        }

        static func listing(_ account: AccountRecord, _ identities: [ProviderIdentity]) -> String {
            var lines = ["uid: \(account.id)"]
            lines.append("email: " + (account.email.map { "\($0) (\(account.isEmailVerified ? "verified" : "not verified"))" } ?? "-"))
            if let name = account.displayName { lines.append("display name: \(name)") }
            if let photo = account.photoURL { lines.append("photo: \(photo)") }
            lines.append("disabled: \(account.isDisabled ? "yes" : "no")")
            lines.append("created: \(Timestamp.format(account.createdAt))")
            lines.append("last sign-in: " + (account.lastSignInAt.map(Timestamp.format) ?? "never"))
            lines.append("providers:" + (identities.isEmpty ? " none (anonymous)" : ""))
            for identity in identities {
                let details = [identity.email, identity.displayName, identity.phoneNumber].compactMap { $0 }
                lines.append("  \(identity.providerID)  \(identity.providerUID)" + details.map { "  \($0)" }.joined())
            }
            return lines.joined(separator: "\n") + "\n"
        }

        static func json(_ account: AccountRecord, _ identities: [ProviderIdentity]) -> String {
            var object = JSONObject()
            object.add("uid", account.id)
            object.add("email", account.email)
            object.add("emailVerified", account.isEmailVerified)
            object.add("displayName", account.displayName)
            object.add("photoURL", account.photoURL)
            object.add("disabled", account.isDisabled)
            object.add("createdAt", account.createdAt)
            object.add("lastSignInAt", account.lastSignInAt)
            let providers = identities.map { identity in
                var entry = JSONObject()
                entry.add("providerId", identity.providerID)
                entry.add("uid", identity.providerUID)
                entry.add("email", identity.email)
                entry.add("displayName", identity.displayName)
                entry.add("phoneNumber", identity.phoneNumber)
                return entry
            }
            object.add("providerData", json: JSONObject.array(providers))
            return object.text
        }
    }
}
