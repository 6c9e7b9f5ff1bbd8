internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication
internal import OTPAuthenticationDatabase
internal import OTPCommandSupport

extension EnrollmentTool.Account {
    /// `totp account export FILE`: every account in the JSON of `firebase auth:export`, so that a
    /// project leaves OTPKit for Firebase (or another OTPKit) with its users' passwords.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every account to FILE as `firebase auth:export` writes JSON, password hashes included.",
            discussion: """
                Password hashes are written as Firebase's STANDARD_SCRYPT reads them (the derived key \
                and the salt, standard Base64), and a line says the `firebase auth:import` options \
                their cost needs (one line per cost when accounts were hashed at several: import each \
                group with its own options). Linked identities of the providers firebase-tools \
                exports go in providerUserInfo, phone second factors in mfaInfo; TOTP secrets and \
                recovery codes are not exported, since Firebase's import takes neither. The file \
                holds password hashes: it is made with mode 0600, never over an existing file, and \
                removed again if it cannot be written whole. Give - to write to standard output.
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: ArgumentHelp("The file to write, which must not exist (- for standard output).", valueName: "file"))
        var file: String

        /// The providers firebase-tools exports in `providerUserInfo` (and imports).
        static let exportedProviders: Set<String> = [
            "google.com", "facebook.com", "twitter.com", "github.com", "apple.com", "microsoft.com", "gc.apple.com",
            "playgames.google.com", "linkedin.com", "yahoo.com",
        ]

        /// What the export holds, to say after it.
        struct Summary {
            var accounts = 0
            /// Accounts by the cost their password hash was made at.
            var hashes: [PasswordHashParameters: Int] = [:]
            /// Accounts whose stored hash is in no form Firebase imports.
            var unusableHashes = 0
            var skippedTOTPFactors = 0
        }

        func run() async throws {
            let (users, summary) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                try await Self.export(database)
            }
            let text = "{\"users\":[" + users.map(\.text).joined(separator: ",\n") + "]}\n"
            let written = try NewFile.write(Array(text.utf8), to: file == "-" ? nil : file)
            let lines = Self.describe(summary, file: written.first ?? "FILE")
            if written.isEmpty {
                StandardStreams.writeError(lines)
            } else {
                StandardStreams.writeOutput(lines)
            }
        }

        /// Every account of `database` as firebase-tools writes it, a page of ids at a time.
        static func export(_ database: any DurableAuthStore) async throws(CommandFailure) -> ([JSONObject], Summary) {
            var users: [JSONObject] = []
            var summary = Summary()
            var after: String?
            while true {
                let page = try await database.running { store in try await store.accounts(after: after, limit: 1000) }
                for account in page {
                    let (linked, phones, totp) = try await database.running { store in
                        (
                            try await store.providerIdentities(accountID: account.id), try await store.phoneFactors(userID: account.id),
                            try await store.factors(userID: account.id).count
                        )
                    }
                    summary.skippedTOTPFactors += totp
                    users.append(user(account, linked: linked, phones: phones, summary: &summary))
                }
                guard let last = page.last, page.count == 1000 else { break }
                after = last.id
            }
            summary.accounts = users.count
            return (users, summary)
        }

        /// One account, its keys in firebase-tools' order.
        static func user(_ account: AccountRecord, linked: [ProviderIdentity], phones: [PhoneFactorRecord], summary: inout Summary) -> JSONObject {
            var user = JSONObject()
            user.add("localId", account.id)
            if let email = account.email {
                user.add("email", email)
                user.add("emailVerified", account.isEmailVerified)
            }
            if let encoded = account.passwordHash {
                if let stored = PasswordHasher.StoredHash(encoded) {
                    user.add("passwordHash", Data(stored.key).base64EncodedString())
                    user.add("salt", Data(stored.salt).base64EncodedString())
                    summary.hashes[stored.parameters, default: 0] += 1
                } else {
                    summary.unusableHashes += 1
                }
            }
            if let name = account.displayName { user.add("displayName", name) }
            if let photo = account.photoURL { user.add("photoUrl", photo) }
            if let lastSignIn = account.lastSignInAt { user.add("lastSignedInAt", String(lastSignIn * 1000)) }
            user.add("createdAt", String(account.createdAt * 1000))
            if let phone = linked.first(where: { $0.providerID == PhoneAuthProvider.id }) {
                user.add("phoneNumber", phone.phoneNumber ?? phone.providerUID)
            }
            user.add("disabled", account.isDisabled)
            if let claims = account.customAttributes { user.add("customAttributes", claims) }
            if !phones.isEmpty {
                user.add(
                    "mfaInfo",
                    json: JSONObject.array(
                        phones.map { factor in
                            var info = JSONObject()
                            info.add("mfaEnrollmentId", factor.id)
                            if let name = factor.displayName { info.add("displayName", name) }
                            info.add("phoneInfo", factor.phoneNumber)
                            info.add("enrolledAt", Date(timeIntervalSince1970: TimeInterval(factor.enrolledAt)).ISO8601Format())
                            return info
                        }))
            }
            let providers = linked.filter { exportedProviders.contains($0.providerID) }
            user.add(
                "providerUserInfo",
                json: JSONObject.array(
                    providers.map { identity in
                        var info = JSONObject()
                        info.add("providerId", identity.providerID)
                        info.add("rawId", identity.providerUID)
                        if let email = identity.email { info.add("email", email) }
                        if let name = identity.displayName { info.add("displayName", name) }
                        return info
                    }))
            return user
        }

        /// What was written, and how to import its passwords.
        static func describe(_ summary: Summary, file: String) -> String {
            var lines = ["Exported \(summary.accounts) account\(summary.accounts == 1 ? "" : "s")."]
            let costs = summary.hashes.sorted { ($0.key.logN, $0.key.r, $0.key.p) < ($1.key.logN, $1.key.r, $1.key.p) }
            if costs.count > 1 {
                lines.append(
                    "Their passwords were hashed at \(costs.count) costs: `firebase auth:import` takes one at a time; import each group with its options."
                )
            }
            for (parameters, count) in costs {
                lines.append(
                    "\(count) password\(count == 1 ? "" : "s") (\(parameters)): firebase auth:import \(file) --hash-algo=STANDARD_SCRYPT --mem-cost=\(1 << parameters.logN) --block-size=\(parameters.r) --parallelization=\(parameters.p) --dk-len=\(PasswordHasher.keyByteCount)"
                )
            }
            if summary.unusableHashes > 0 {
                lines.append(
                    "\(summary.unusableHashes) password hash\(summary.unusableHashes == 1 ? " is" : "es are") in no form Firebase imports and left out: those users reset their passwords."
                )
            }
            if summary.skippedTOTPFactors > 0 {
                lines.append(
                    "\(summary.skippedTOTPFactors) TOTP factor\(summary.skippedTOTPFactors == 1 ? " was" : "s were") not exported: Firebase's import takes phone factors only."
                )
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
