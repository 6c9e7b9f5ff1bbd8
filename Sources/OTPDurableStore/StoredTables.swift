package import OTPAuthentication

/// The tables of the durable stores' schema that the rules reach by user, named once for both
/// backends: those of enrolled second factors, one per kind that has enrolled factors (what the
/// factor limit counts), and every table deleting an account empties of the user's rows.
///
/// ``table(of:)`` switches over every `FactorKind`, so a new kind does not compile until its
/// table is named here, or it is said to have none.
package enum StoredTables {
    /// The table of `kind`'s enrolled factors (rows with `id` and `user_id`); `nil` for a kind
    /// whose factors are not enrolled one by one.
    package static func table(of kind: FactorKind) -> String? {
        switch kind {
        case .totp: "factors"
        case .phone: "phone_factors"
        case .recoveryCode: nil
        case .webauthn: "passkey_factors"
        }
    }

    /// Views among the kinds' tables: their rows are deleted from the table they show, which
    /// ``ofUser`` names.
    static let views: Set<String> = ["passkey_factors"]

    /// Every kind's table, in `FactorKind`'s order.
    package static let factors = FactorKind.allCases.compactMap(table(of:))

    /// Every table whose rows belong to a user by their `user_id` column: what deleting an account
    /// empties (its provider identities, keyed by `account_id`, aside).
    package static let ofUser =
        factors.filter { !views.contains($0) } + [
            "pending_enrollments", "phone_verifications", "sessions", "recovery_codes", "sign_in_sources", "email_actions", "passkeys",
            "passkey_challenges",
        ]

    /// A query of one row whose column `n` is how many factors the user `user` has, every kind
    /// together; `user` is the backend's spelling of the parameter (`?1`, `$1`).
    package static func countQuery(user: String) -> String {
        "SELECT " + factors.map { "(SELECT count(*) FROM \($0) WHERE user_id = \(user))" }.joined(separator: " + ") + " AS n"
    }

    /// A statement deleting the failure counters of the user `user`'s factors, every kind's.
    package static func deleteFailureCountersStatement(user: String) -> String {
        "DELETE FROM failure_counters WHERE key IN ("
            + factors.map { "SELECT id FROM \($0) WHERE user_id = \(user)" }.joined(separator: " UNION ALL ") + ")"
    }
}
