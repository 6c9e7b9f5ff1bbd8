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
            abstract: "Write every account to FILE as `firebase auth:export` writes it (JSON or CSV), password hashes included.",
            discussion: """
                Password hashes are written as Firebase's STANDARD_SCRYPT reads them (the derived key \
                and the salt, standard Base64), and a line says the `firebase auth:import` options \
                their cost needs (one line per cost when accounts were hashed at several: import each \
                group with its own options); `totp account import` takes the same options. Linked \
                identities of the providers firebase-tools exports go in providerUserInfo (CSV: their \
                columns), phone second factors in JSON's mfaInfo. TOTP factors are left out, since \
                Firebase's import takes none, unless --with-totp-secrets writes their shared secrets \
                (OTPKit's totpInfo.sharedSecretKey, which `totp account import` and otpkit-server's \
                accounts:batchCreate read). Recovery codes are never exported. The file holds password \
                hashes: it is made with mode 0600, never over an existing file, and removed again if it \
                cannot be written whole. Give - to write to standard output.
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: ArgumentHelp("The file's format (default: csv for a .csv file, json otherwise).", valueName: "json|csv"))
        var format: Import.Format?

        @Flag(help: "Write TOTP factors with their shared secrets (JSON only), for another OTPKit: anyone with the file can make their codes.")
        var withTOTPSecrets = false

        @Argument(help: ArgumentHelp("The file to write, which must not exist (- for standard output).", valueName: "file"))
        var file: String

        /// The format asked for, or the file's.
        var chosenFormat: Import.Format { format ?? (file.lowercased().hasSuffix(".csv") ? .csv : .json) }

        func validate() throws {
            if withTOTPSecrets, chosenFormat == .csv {
                throw ValidationError("--with-totp-secrets writes JSON's mfaInfo, which CSV has no column for: write JSON")
            }
        }

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
            /// Phone factors left out of a CSV file, which has no column for them.
            var skippedPhoneFactors = 0
            var format = Import.Format.json
        }

        func run() async throws {
            let (users, summary) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                try await Self.export(database, format: chosenFormat, totpSecrets: withTOTPSecrets)
            }
            let text =
                switch chosenFormat {
                case .json: "{\"users\":[" + users.joined(separator: ",\n") + "]}\n"
                case .csv: users.map { $0 + "\n" }.joined()
                }
            let written = try NewFile.write(Array(text.utf8), to: file == "-" ? nil : file)
            let lines = Self.describe(summary, file: written.first ?? "FILE")
            if written.isEmpty {
                StandardStreams.writeError(lines)
            } else {
                StandardStreams.writeOutput(lines)
            }
        }

        /// Every account of `database` as firebase-tools writes it in `format` (a JSON object or a
        /// CSV line each), a page of ids at a time.
        static func export(_ database: any DurableAuthStore, format: Import.Format, totpSecrets: Bool) async throws(CommandFailure) -> (
            [String], Summary
        ) {
            var users: [String] = []
            var summary = Summary()
            summary.format = format
            var after: String?
            while true {
                let page = try await database.running { store in try await store.accounts(after: after, limit: 1000) }
                for account in page {
                    let (linked, phones, factors) = try await database.running { store in
                        (
                            try await store.providerIdentities(accountID: account.id), try await store.phoneFactors(userID: account.id),
                            try await store.factors(userID: account.id)
                        )
                    }
                    switch format {
                    case .json:
                        let exported = totpSecrets ? factors.filter(\.hasFirebaseParameters) : []
                        summary.skippedTOTPFactors += factors.count - exported.count
                        users.append(user(account, linked: linked, phones: phones, totp: exported, summary: &summary).text)
                    case .csv:
                        summary.skippedTOTPFactors += factors.count
                        summary.skippedPhoneFactors += phones.count
                        users.append(csvLine(account, linked: linked, summary: &summary))
                    }
                }
                guard let last = page.last, page.count == 1000 else { break }
                after = last.id
            }
            summary.accounts = users.count
            return (users, summary)
        }

        /// One account, its keys in firebase-tools' order.
        static func user(
            _ account: AccountRecord, linked: [ProviderIdentity], phones: [PhoneFactorRecord], totp: [FactorRecord], summary: inout Summary
        ) -> JSONObject {
            var user = JSONObject()
            user.add("localId", account.id)
            if let email = account.email {
                user.add("email", email)
                user.add("emailVerified", account.isEmailVerified)
            }
            if let (hash, salt) = passwordHash(account, summary: &summary) {
                user.add("passwordHash", hash)
                user.add("salt", salt)
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
            func factor(_ id: String, _ name: String?, enrolledAt: Int64, _ add: (inout JSONObject) -> Void) -> JSONObject {
                var info = JSONObject()
                info.add("mfaEnrollmentId", id)
                if let name { info.add("displayName", name) }
                add(&info)
                info.add("enrolledAt", Date(timeIntervalSince1970: TimeInterval(enrolledAt)).ISO8601Format())
                return info
            }
            let factors =
                phones.map { phone in factor(phone.id, phone.displayName, enrolledAt: phone.enrolledAt) { $0.add("phoneInfo", phone.phoneNumber) } }
                + totp.map { totp in
                    factor(totp.id, totp.displayName, enrolledAt: totp.enrolledAt) { info in
                        var secret = JSONObject()
                        secret.add("sharedSecretKey", totp.secret.base32)
                        info.add("totpInfo", json: secret.text)
                    }
                }
            if !factors.isEmpty { user.add("mfaInfo", json: JSONObject.array(factors)) }
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

        /// One account as a line of firebase-tools' CSV: its 52 columns and the comma it ends with.
        static func csvLine(_ account: AccountRecord, linked: [ProviderIdentity], summary: inout Summary) -> String {
            var columns = [String](repeating: "", count: 52)
            columns[0] = account.id
            columns[1] = account.email ?? ""
            columns[2] = account.isEmailVerified ? "true" : "false"
            if let (hash, salt) = passwordHash(account, summary: &summary) {
                columns[3] = hash
                columns[4] = salt
            }
            columns[5] = account.displayName ?? ""
            columns[6] = account.photoURL ?? ""
            for (position, providerID) in FirebaseUserRecord.csvProviders.enumerated() {
                guard let identity = linked.first(where: { $0.providerID == providerID }) else { continue }
                let first = FirebaseUserRecord.csvColumn(ofProviderAt: position)
                columns[first] = identity.providerUID
                columns[first + 1] = identity.email ?? ""
                columns[first + 2] = identity.displayName ?? ""
            }
            columns[23] = String(account.createdAt * 1000)
            columns[24] = account.lastSignInAt.map { String($0 * 1000) } ?? ""
            columns[25] = linked.first { $0.providerID == PhoneAuthProvider.id }.map { $0.phoneNumber ?? $0.providerUID } ?? ""
            columns[26] = account.isDisabled ? "true" : "false"
            columns[27] = account.customAttributes ?? ""
            return columns.map(csvField).joined(separator: ",") + ","
        }

        /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
        static func csvField(_ value: String) -> String {
            guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
            return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }

        /// The account's password hash and salt in standard base64, as STANDARD_SCRYPT reads them;
        /// `nil`, counted, for a hash in no form Firebase imports.
        static func passwordHash(_ account: AccountRecord, summary: inout Summary) -> (hash: String, salt: String)? {
            guard let encoded = account.passwordHash else { return nil }
            guard let stored = PasswordHasher.StoredHash(encoded) else {
                summary.unusableHashes += 1
                return nil
            }
            summary.hashes[stored.parameters, default: 0] += 1
            return (Data(stored.key).base64EncodedString(), Data(stored.salt).base64EncodedString())
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
            if summary.skippedPhoneFactors > 0 {
                lines.append(
                    "\(summary.skippedPhoneFactors) phone factor\(summary.skippedPhoneFactors == 1 ? " was" : "s were") not exported: CSV has no column for second factors (JSON has)."
                )
            }
            if summary.skippedTOTPFactors > 0 {
                let why =
                    summary.format == .csv
                    ? "CSV has no column for second factors"
                    : "Firebase's import takes phone factors only (--with-totp-secrets writes those of SHA-1, 6 digits and 30 seconds for another OTPKit)"
                lines.append("\(summary.skippedTOTPFactors) TOTP factor\(summary.skippedTOTPFactors == 1 ? " was" : "s were") not exported: \(why).")
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
