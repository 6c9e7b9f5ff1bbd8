package import OTPCore
package import OTPAuthentication
package import OTPSealing

/// One row of a durable store's tables as typed column values: what a store implements over its
/// driver's rows so that the records are built from columns the same way on every store.
///
/// The column names are those of ``StoredColumns``; each accessor reports a missing or mistyped
/// column as ``invalidRecord(recordID:detail:)``, naming the record, never its values.
package protocol StoredRow {
    /// The store's own error type.
    associatedtype Failure: Error

    /// A text column that must hold a value.
    func text(_ column: String, of recordID: String) throws(Failure) -> String
    /// A text column that may be null.
    func optionalText(_ column: String, of recordID: String) throws(Failure) -> String?
    /// An integer column that must hold a value.
    func integer(_ column: String, of recordID: String) throws(Failure) -> Int64
    /// An integer column that may be null.
    func optionalInteger(_ column: String, of recordID: String) throws(Failure) -> Int64?
    /// A boolean column (an integer in stores without booleans: not zero is true).
    func boolean(_ column: String, of recordID: String) throws(Failure) -> Bool
    /// A byte-string column that must hold a value.
    func bytes(_ column: String, of recordID: String) throws(Failure) -> [UInt8]
    /// A byte-string column that may be null.
    func optionalBytes(_ column: String, of recordID: String) throws(Failure) -> [UInt8]?

    /// The error for a row that holds a value no OTPKit writes.
    func invalidRecord(recordID: String, detail: String) -> Failure
    /// The error for a sealed value that does not open.
    func unusableSecret(recordID: String, _ error: SealingError) -> Failure
}

/// The columns each record is stored in, in the order the stores select and insert them.
package enum StoredColumns {
    package static let pendingEnrollment = "id, user_id, sealed_secret, key_id, algorithm, digits, period, created_at, deadline"
    package static let factor =
        "id, user_id, factor_id, display_name, enrolled_at, sealed_secret, key_id, algorithm, digits, period, last_accepted_step"
    package static let session =
        "id, user_id, first_factor_provider, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at, session_claims"
    package static let account =
        "id, email, email_verified, display_name, photo_url, disabled, created_at, last_sign_in_at, password_hash, tokens_valid_after, custom_attributes"
    package static let providerIdentity = "provider_id, provider_uid, email, display_name, phone_number"
    package static let phoneFactor = "id, user_id, display_name, enrolled_at, phone_number"
    package static let phoneVerification =
        "id, purpose, user_id, enrollment_id, credential_id, phone_number, code_digest, created_at, expires_at, failed_attempts"
    package static let emailAction = "code_digest, kind, user_id, email, new_email, created_at, expires_at"
}

extension StoredRow {
    /// The secret in column `sealed_secret`, opened by `sealer` with `recordID` as associated data.
    package func openSecret(_ sealer: SecretSealer, recordID: String) throws(Failure) -> OTPSecret {
        let bytes = try bytes("sealed_secret", of: recordID)
        do throws(SealingError) {
            return try sealer.open(SealedSecret(bytes: bytes), enrollmentID: recordID)
        } catch {
            throw unusableSecret(recordID: recordID, error)
        }
    }

    func algorithm(of recordID: String) throws(Failure) -> OTPAlgorithm {
        let name = try text("algorithm", of: recordID)
        guard let algorithm = OTPAlgorithm(rawValue: name) else {
            throw invalidRecord(recordID: recordID, detail: "unknown algorithm \(name)")
        }
        return algorithm
    }

    /// A row of ``StoredColumns/pendingEnrollment``, its secret opened by `sealer`.
    package func pendingEnrollmentRecord(_ sealer: SecretSealer) throws(Failure) -> PendingEnrollmentRecord {
        let id = try text("id", of: "?")
        return PendingEnrollmentRecord(
            id: id,
            userID: try text("user_id", of: id),
            secret: try openSecret(sealer, recordID: id),
            algorithm: try algorithm(of: id),
            digits: Int(try integer("digits", of: id)),
            period: try integer("period", of: id),
            createdAt: try integer("created_at", of: id),
            deadline: try integer("deadline", of: id)
        )
    }

    /// A row of ``StoredColumns/factor``, its secret opened by `sealer`.
    package func factorRecord(_ sealer: SecretSealer) throws(Failure) -> FactorRecord {
        let id = try text("id", of: "?")
        let step = try optionalInteger("last_accepted_step", of: id)
        return FactorRecord(
            id: id,
            userID: try text("user_id", of: id),
            factorID: try text("factor_id", of: id),
            displayName: try optionalText("display_name", of: id),
            enrolledAt: try integer("enrolled_at", of: id),
            secret: try openSecret(sealer, recordID: id),
            algorithm: try algorithm(of: id),
            digits: Int(try integer("digits", of: id)),
            period: try integer("period", of: id),
            lastAcceptedStep: try step.map { stored throws(Failure) in
                guard let step = UInt64(exactly: stored) else {
                    throw invalidRecord(recordID: id, detail: "negative last accepted step")
                }
                return step
            }
        )
    }

    /// A row of `consecutive_failures, locked_until`: the failure counter under `key`.
    package func failureCounter(key: String) throws(Failure) -> FailureCounter {
        FailureCounter(
            consecutiveFailures: Int(try integer("consecutive_failures", of: key)), lockedUntil: try optionalInteger("locked_until", of: key))
    }

    /// A row of `id, user_id, last_accepted_step`: a TOTP factor as a sign-in completion reads it.
    package func completionFactor() throws(Failure) -> (id: String, factor: SignInCompletionBatch.Factor) {
        let id = try text("id", of: "?")
        return (
            id, SignInCompletionBatch.Factor(userID: try text("user_id", of: id), lastAcceptedStep: try optionalInteger("last_accepted_step", of: id))
        )
    }

    /// A row of ``StoredColumns/session``.
    package func sessionRecord() throws(Failure) -> SessionRecord {
        let id = try text("id", of: "?")
        return SessionRecord(
            id: id,
            userID: try text("user_id", of: id),
            firstFactorProvider: try text("first_factor_provider", of: id),
            authenticatedAt: try integer("authenticated_at", of: id),
            secondFactorEnrollmentID: try optionalText("second_factor_enrollment_id", of: id),
            lastUsedAt: try integer("last_used_at", of: id),
            expiresAt: try integer("expires_at", of: id),
            sessionClaims: try optionalText("session_claims", of: id)
        )
    }

    /// A row of ``StoredColumns/account``.
    package func accountRecord() throws(Failure) -> AccountRecord {
        let id = try text("id", of: "?")
        return AccountRecord(
            id: id,
            email: try optionalText("email", of: id),
            isEmailVerified: try boolean("email_verified", of: id),
            displayName: try optionalText("display_name", of: id),
            photoURL: try optionalText("photo_url", of: id),
            isDisabled: try boolean("disabled", of: id),
            createdAt: try integer("created_at", of: id),
            lastSignInAt: try optionalInteger("last_sign_in_at", of: id),
            passwordHash: try optionalText("password_hash", of: id),
            tokensValidAfter: try optionalInteger("tokens_valid_after", of: id),
            customAttributes: try optionalText("custom_attributes", of: id)
        )
    }

    /// A row of ``StoredColumns/providerIdentity`` of account `accountID`.
    package func providerIdentity(of accountID: String) throws(Failure) -> ProviderIdentity {
        ProviderIdentity(
            providerID: try text("provider_id", of: accountID), providerUID: try text("provider_uid", of: accountID),
            email: try optionalText("email", of: accountID), displayName: try optionalText("display_name", of: accountID),
            phoneNumber: try optionalText("phone_number", of: accountID))
    }

    /// A row of ``StoredColumns/phoneFactor``.
    package func phoneFactorRecord() throws(Failure) -> PhoneFactorRecord {
        let id = try text("id", of: "?")
        return PhoneFactorRecord(
            id: id, userID: try text("user_id", of: id), displayName: try optionalText("display_name", of: id),
            enrolledAt: try integer("enrolled_at", of: id), phoneNumber: try text("phone_number", of: id))
    }

    /// A row of ``StoredColumns/phoneVerification``.
    package func phoneVerificationRecord() throws(Failure) -> PhoneVerificationRecord {
        let id = try text("id", of: "?")
        let purposeName = try text("purpose", of: id)
        guard let purpose = PhoneVerificationRecord.Purpose(rawValue: purposeName) else {
            throw invalidRecord(recordID: id, detail: "unknown purpose \(purposeName)")
        }
        return PhoneVerificationRecord(
            id: id, purpose: purpose, userID: try text("user_id", of: id), enrollmentID: try optionalText("enrollment_id", of: id),
            credentialID: try optionalText("credential_id", of: id), phoneNumber: try text("phone_number", of: id),
            codeDigest: try bytes("code_digest", of: id), createdAt: try integer("created_at", of: id),
            expiresAt: try integer("expires_at", of: id), failedAttempts: Int(try integer("failed_attempts", of: id)))
    }

    /// A row of ``StoredColumns/emailAction``; a record named by its kind in errors, its code
    /// digest being the secret that finds it.
    package func emailActionRecord() throws(Failure) -> EmailActionRecord {
        let kindName = try text("kind", of: "an email action")
        guard let kind = EmailActionKind(rawValue: kindName) else {
            throw invalidRecord(recordID: "an email action", detail: "unknown kind \(kindName)")
        }
        let id = "an email action of kind \(kindName)"
        return EmailActionRecord(
            codeDigest: try bytes("code_digest", of: id), kind: kind, accountID: try optionalText("user_id", of: id),
            email: try text("email", of: id), newEmail: try optionalText("new_email", of: id), createdAt: try integer("created_at", of: id),
            expiresAt: try integer("expires_at", of: id))
    }
}

extension StoredColumns {
    /// One branch of ``taggedUnion(_:)``: the rows of `kind`, its `columns` (one of the lists
    /// above) and the rest of its `SELECT` after `FROM`.
    package struct Branch: Sendable {
        package var kind: String
        package var columns: String
        package var from: String

        package init(kind: String, columns: String, from: String) {
            self.kind = kind
            self.columns = columns
            self.from = from
        }
    }

    /// Rows of several tables in one statement, each tagged with its `kind`, for a read that would
    /// otherwise take a round trip per table. `UNION ALL` needs one set of columns: each branch
    /// names every column of every branch, its own and `NULL` for the others', so each kind's row
    /// decoder reads its columns by name as from its own table. `null` gives the `NULL` that stands
    /// for a column in another kind's branch (PostgreSQL needs it typed: it settles the type of
    /// each column from the first branches, and an untyped `NULL` there becomes text).
    package static func taggedUnion(_ branches: [Branch], orderedBy order: String, null: (String) -> String = { _ in "NULL" }) -> String {
        func names(_ columns: String) -> [String] { columns.split(separator: ",").map { String($0.drop { $0 == " " }) } }
        var all: [String] = []
        for branch in branches { all += names(branch.columns).filter { !all.contains($0) } }
        let selects = branches.map { branch in
            let own = Set(names(branch.columns))
            let columns = all.map { own.contains($0) ? $0 : "\(null($0)) AS \($0)" }.joined(separator: ", ")
            return "SELECT '\(branch.kind)' AS kind, \(columns) FROM \(branch.from)"
        }
        return selects.joined(separator: " UNION ALL ") + " ORDER BY " + order
    }
}
