internal import ArgumentParser
internal import OTPEnrollment
internal import OTPEnrollmentSQLite

extension EnrollmentTool {
    /// `totp factors`: what a user has enrolled.
    struct Factors: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a user's enrolled second factors (never their secrets).")

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The user's id.")
        var user: String

        func run() async throws {
            let store = try await storeOptions.openStore()
            let factors: [FactorRecord]
            do throws(SQLiteEnrollmentStoreError) {
                factors = try await store.factors(userID: user)
                try await store.close()
            } catch {
                try? await store.close()
                throw EnrollmentFailure(error)
            }
            let lines = factors.map { factor in
                "\(factor.id)  \(factor.factorID)  \(factor.displayName ?? "-")  enrolled \(factor.enrolledAt)  "
                    + "\(factor.algorithm.rawValue)/\(factor.digits)/\(factor.period)s"
            }
            Terminal.writeOutput(lines.isEmpty ? "\(user) has no second factor.\n" : lines.joined(separator: "\n") + "\n")
        }
    }
}
