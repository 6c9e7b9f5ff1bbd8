public import OTPAuthentication
internal import NIOCore
internal import OTPDurableStore
internal import PostgresNIO

extension PostgresAuthStore {
    // MARK: Phone factors

    public func phoneFactors(userID: String) async throws(PostgresAuthStoreError) -> [PhoneFactorRecord] {
        let rows = try await reading("reading phone factors") { connection in
            try await connection.phoneFactorRows(of: userID)
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.phoneFactorRecord() }
    }

    public func phoneFactor(id: String) async throws(PostgresAuthStoreError) -> PhoneFactorRecord? {
        let rows = try await reading("reading a phone factor") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.phoneFactor) FROM phone_factors WHERE id = \(id)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.phoneFactorRecord() }.first
    }

    public func removePhoneFactor(id: String, userID: String) async throws(PostgresAuthStoreError) -> PhoneFactorRecord? {
        let rows = try await transaction("removing a phone factor") { connection in
            let rows = try await connection.query(
                "DELETE FROM phone_factors WHERE id = \(id) AND user_id = \(userID) RETURNING \(unescaped: StoredColumns.phoneFactor)")
            if !rows.isEmpty {
                try await connection.resetFailures(key: id)
                try await connection.recordAudit()
            }
            return rows
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.phoneFactorRecord() }.first
    }

    public func renamePhoneFactor(id: String, userID: String, displayName: String?) async throws(PostgresAuthStoreError) -> Bool {
        try await renameRow(in: "phone_factors", id: id, userID: userID, displayName: displayName)
    }

    // MARK: Verifications

    public func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws(PostgresAuthStoreError) {
        try await transaction("storing a phone verification", retry: .ifNotApplied) { connection in
            try await connection.execute(
                """
                INSERT INTO phone_verifications (\(unescaped: StoredColumns.phoneVerification))
                VALUES (\(record.id), \(record.purpose.rawValue), \(record.userID), \(record.enrollmentID), \(record.credentialID),
                        \(record.phoneNumber), \(ByteBuffer(bytes: record.codeDigest)), \(record.createdAt), \(record.expiresAt),
                        \(Int64(record.failedAttempts)))
                """)
        }
    }

    public func phoneVerification(id: String) async throws(PostgresAuthStoreError) -> PhoneVerificationRecord? {
        let rows = try await reading("reading a phone verification") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.phoneVerification) FROM phone_verifications WHERE id = \(id)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.phoneVerificationRecord() }.first
    }

    public func removePhoneVerification(id: String) async throws(PostgresAuthStoreError) {
        try await transaction("removing a phone verification", retry: .always) { connection in
            try await connection.execute("DELETE FROM phone_verifications WHERE id = \(id)")
        }
    }

    /// One transaction: the verification is locked as it is read, so of concurrent uses of one
    /// code the first spends it and the others find it gone.
    public func consumeFirstFactorVerification(
        _ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int
    ) async throws(PostgresAuthStoreError) -> PhoneVerificationConsumption {
        try await transaction("checking a phone code") { connection -> PhoneVerificationConsumption in
            try await connection.consumeFirstFactorVerification(verificationID, codeDigests: codeDigests, at: time, maximumAttempts: maximumAttempts)
        }
    }

    /// One transaction under the user's factor lock (the factor limit and the number's uniqueness
    /// per user hold across servers), with the verification locked as it is read, so a code is
    /// spent, or an attempt counted, exactly once.
    public func finalizePhoneEnrollment(
        verificationID: String,
        userID: String,
        codeDigests: [[UInt8]],
        at time: Int64,
        maximumAttempts: Int,
        factorID: String,
        displayName: String?,
        maximumFactorCount: Int
    ) async throws(PostgresAuthStoreError) -> PhoneEnrollmentFinalization {
        try await transaction("finalizing a phone enrollment") { connection -> PhoneEnrollmentFinalization in
            try await connection.finalizePhoneEnrollment(
                verificationID: verificationID, userID: userID, codeDigests: codeDigests, at: time, maximumAttempts: maximumAttempts,
                factorID: factorID, displayName: displayName, maximumFactorCount: maximumFactorCount)
        }
    }

    /// One transaction: the credential and the verification are locked as they are read, so of
    /// concurrent completions with one verification the first spends it and the others find it gone.
    public func completeSignIn(
        credential: PendingSignInRecord,
        phoneVerificationID verificationID: String,
        codeDigests: [[UInt8]],
        maximumAttempts: Int,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(PostgresAuthStoreError) -> SignInCompletion {
        try await transaction("completing a phone sign-in") { connection -> SignInCompletion in
            try await connection.completePhoneSignIn(
                credential: credential, verificationID: verificationID, codeDigests: codeDigests, maximumAttempts: maximumAttempts, at: time,
                session: session, maximumSessionsPerUser: maximumSessionsPerUser)
        }
    }

    /// One transaction under the user's factor lock, so the factor limit holds across servers.
    public func importFactors(
        userID: String, totp: [FactorRecord], phone: [PhoneFactorRecord], maximumFactorCount: Int
    ) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("importing factors") { connection -> Bool in
            try await connection.importFactors(userID: userID, totp: totp, phone: phone, maximumFactorCount: maximumFactorCount)
        }
    }
}

extension PostgresAuthStore.Connection {
    /// The verification `id`, locked until the transaction ends.
    func lockedPhoneVerification(id: String) async throws -> PhoneVerificationRecord? {
        let rows = try await query("SELECT \(unescaped: StoredColumns.phoneVerification) FROM phone_verifications WHERE id = \(id) FOR UPDATE")
        return try rows.first.map { try PostgresStoredRow(row: $0).phoneVerificationRecord() }
    }

    /// Writes back a verification after a check: its counted attempt, or its deletion.
    func keepPhoneVerification(_ kept: PhoneVerificationRecord?, id: String) async throws {
        if let kept {
            try await execute("UPDATE phone_verifications SET failed_attempts = \(Int64(kept.failedAttempts)) WHERE id = \(id)")
        } else {
            try await execute("DELETE FROM phone_verifications WHERE id = \(id)")
        }
    }

}
