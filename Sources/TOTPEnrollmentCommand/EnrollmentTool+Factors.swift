internal import OTPCore
internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthenticationDatabase
internal import OTPAuthentication

extension EnrollmentTool {
    /// `totp factors`: what a user has enrolled.
    struct Factors: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a user's enrolled second factors (never their secrets).",
            discussion: "Enrollment times are UTC; --json gives them as Unix seconds."
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The user's id.")
        var user: String

        @Flag(
            help:
                #"Print [{"id":"…","factorID":"totp","displayName":…,"enrolledAt":SECONDS,"algorithm":"SHA1","digits":6,"period":30}, …], with {"id":"…","factorID":"phone","displayName":…,"enrolledAt":SECONDS,"phoneNumber":"+1…"} for phone factors."#
        )
        var json = false

        func run() async throws {
            let (factors, phones) = try await storeOptions.withDatabase { database throws(CommandFailure) in
                try await database.running { store in (try await store.factors(userID: user), try await store.phoneFactors(userID: user)) }
            }
            StandardStreams.writeOutput(json ? Self.json(factors, phones) + "\n" : Self.listing(factors, phones, user: user))
        }

        /// One line per factor, TOTP factors first, with the enrollment time in ISO 8601 (UTC),
        /// which a person reads. Phone numbers are whole: the operator is the owner's proxy here.
        static func listing(_ factors: [FactorRecord], _ phones: [PhoneFactorRecord], user: String) -> String {
            guard !factors.isEmpty || !phones.isEmpty else { return "\(user) has no second factor.\n" }
            let totp = factors.map { factor in
                "\(factor.id)  \(factor.factorID)  \(factor.displayName ?? "-")  enrolled \(Timestamp.format(factor.enrolledAt))  "
                    + "\(factor.algorithm.rawValue)/\(factor.digits)/\(factor.period)s\n"
            }
            let phone = phones.map { factor in
                "\(factor.id)  phone  \(factor.displayName ?? "-")  enrolled \(Timestamp.format(factor.enrolledAt))  \(factor.phoneNumber)\n"
            }
            return (totp + phone).joined()
        }

        /// The factors as a JSON array; numbers stay numbers, and the secret is never a member.
        static func json(_ factors: [FactorRecord], _ phones: [PhoneFactorRecord]) -> String {
            let totp = factors.map { factor in
                var object = JSONObject()
                object.add("id", factor.id)
                object.add("factorID", factor.factorID)
                object.add("displayName", factor.displayName)
                object.add("enrolledAt", factor.enrolledAt)
                object.add("algorithm", factor.algorithm.rawValue)
                object.add("digits", factor.digits)
                object.add("period", factor.period)
                return object
            }
            let phone = phones.map { factor in
                var object = JSONObject()
                object.add("id", factor.id)
                object.add("factorID", PhoneMultiFactorID)
                object.add("displayName", factor.displayName)
                object.add("enrolledAt", factor.enrolledAt)
                object.add("phoneNumber", factor.phoneNumber)
                return object
            }
            return JSONObject.array(totp + phone)
        }
    }
}
