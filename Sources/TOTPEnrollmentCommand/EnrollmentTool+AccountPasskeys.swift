internal import OTPCore
internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthenticationDatabase
internal import OTPAuthentication
internal import OTPSealing

extension EnrollmentTool.Account {
    /// `totp account passkeys USER`: a user's passkeys, and removing one. Registering needs an
    /// authenticator, so it happens through `otpkit-server` (or a page on it).
    struct Passkeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a user's passkeys, or remove one (never their keys).",
            discussion:
                "Credential ids are base64url, as accounts:lookup's passkeyInfo and browsers write them. Times are UTC; --json gives them as Unix seconds. Registering a passkey needs an authenticator: it happens through otpkit-server."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The account's uid.")
        var user: String

        // Unconditional: a base64url credential id may start with "-", which would otherwise read as an option.
        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Remove the passkey with this credential id (base64url or base64).", valueName: "credential-id"))
        var remove: String?

        @Flag(
            help:
                #"Print [{"credentialId":"…","name":"…","createdAt":SECONDS,"lastUsedAt":SECONDS|null,"backupEligible":BOOL,"backedUp":BOOL,"userVerified":BOOL}, …]."#
        )
        var json = false

        func run() async throws {
            var credentialID: [UInt8]?
            if let remove {
                guard let bytes = Base64URL.decodeEitherAlphabet(remove), !bytes.isEmpty else {
                    throw CommandFailure.usage("--remove \(remove) is not a credential id: give one as `totp account passkeys \(user)` lists it")
                }
                credentialID = bytes
            }
            let (passkeys, removed, databaseName) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                try await database.running { store in
                    var removed: Bool?
                    if let credentialID {
                        let event = AuditEvent(
                            time: SystemAuthClock().now(), kind: .passkeyRemoved, userID: user, actor: .system,
                            factorID: Base64URL.encode(credentialID))
                        removed = try await AuditTrail.recording(event) { try await store.removePasskey(credentialID: credentialID, userID: user) }
                    }
                    return (try await store.passkeys(userID: user), removed, database.databaseName)
                }
            }
            if let remove {
                guard removed == true else { throw CommandFailure.refused("\(user) has no passkey \(remove) in \(databaseName)") }
                StandardStreams.writeOutput("removed passkey \(remove) of \(user)\n")
                return
            }
            StandardStreams.writeOutput(json ? Self.json(passkeys) + "\n" : Self.listing(passkeys, user: user))
        }

        /// One line per passkey, oldest first: its id, name, times and whether it syncs.
        static func listing(_ passkeys: [PasskeyRecord], user: String) -> String {
            guard !passkeys.isEmpty else { return "\(user) has no passkey.\n" }
            return passkeys.map { passkey in
                "\(Base64URL.encode(passkey.credentialID))  \(passkey.name)  created \(Timestamp.format(passkey.createdAt))  "
                    + "last used \(passkey.lastUsedAt.map(Timestamp.format) ?? "never")  "
                    + (passkey.isBackupEligible ? "synced\n" : "this device only\n")
            }.joined()
        }

        /// The passkeys as a JSON array; the public key is never a member.
        static func json(_ passkeys: [PasskeyRecord]) -> String {
            JSONObject.array(
                passkeys.map { passkey in
                    var object = JSONObject()
                    object.add("credentialId", Base64URL.encode(passkey.credentialID))
                    object.add("name", passkey.name)
                    object.add("createdAt", passkey.createdAt)
                    object.add("lastUsedAt", passkey.lastUsedAt)
                    object.add("backupEligible", passkey.isBackupEligible)
                    object.add("backedUp", passkey.isBackedUp)
                    object.add("userVerified", passkey.isUserVerified)
                    return object
                })
        }
    }
}
