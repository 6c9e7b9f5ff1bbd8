public import OTPEnrollment
internal import OTPDurableStore
internal import SQLiteNIO

extension SQLiteEnrollmentStore {
    static let phoneFactorColumns = StoredColumns.phoneFactor
    static let phoneVerificationColumns = StoredColumns.phoneVerification

    // MARK: Phone factors

    public func phoneFactors(userID: String) async throws(SQLiteEnrollmentStoreError) -> [PhoneFactorRecord] {
        let rows = try await phoneFactorRows(userID: userID, on: .reader)
        return try rows.map { row throws(SQLiteEnrollmentStoreError) in try phoneFactorRecord(row) }
    }

    /// On the writer, the caller holds ``lock``.
    func phoneFactorRows(userID: String, on role: ConnectionRole = .writer) async throws(SQLiteEnrollmentStoreError) -> [SQLiteRow] {
        try await execute(
            "SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE user_id = ? ORDER BY enrolled_at, id", [.text(userID)], on: role)
    }

    public func phoneFactor(id: String) async throws(SQLiteEnrollmentStoreError) -> PhoneFactorRecord? {
        let rows = try await execute("SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE id = ?", [.text(id)], on: .reader)
        return try rows.first.map { row throws(SQLiteEnrollmentStoreError) in try phoneFactorRecord(row) }
    }

    public func removePhoneFactor(id: String, userID: String) async throws(SQLiteEnrollmentStoreError) -> PhoneFactorRecord? {
        let rows = try await transaction { () throws(SQLiteEnrollmentStoreError) in
            let rows = try await self.execute(
                "DELETE FROM phone_factors WHERE id = ? AND user_id = ? RETURNING \(Self.phoneFactorColumns)", [.text(id), .text(userID)])
            if !rows.isEmpty {
                try await self.execute("DELETE FROM failure_counters WHERE key = ?", [.text(id)])
            }
            return rows
        }
        return try rows.first.map { row throws(SQLiteEnrollmentStoreError) in try phoneFactorRecord(row) }
    }

    // MARK: Verifications

    public func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws(SQLiteEnrollmentStoreError) {
        try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute(
                "INSERT INTO phone_verifications (\(Self.phoneVerificationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(record.id), .text(record.purpose.rawValue), .text(record.userID), record.enrollmentID.map { .text($0) } ?? .null,
                    record.credentialID.map { .text($0) } ?? .null, .text(record.phoneNumber), .blob(ByteBuffer(bytes: record.codeDigest)),
                    .integer(.init(record.createdAt)), .integer(.init(record.expiresAt)), .integer(record.failedAttempts),
                ])
        }
    }

    public func phoneVerification(id: String) async throws(SQLiteEnrollmentStoreError) -> PhoneVerificationRecord? {
        try await readPhoneVerification(id: id, on: .reader)
    }

    public func removePhoneVerification(id: String) async throws(SQLiteEnrollmentStoreError) {
        try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute("DELETE FROM phone_verifications WHERE id = ?", [.text(id)])
        }
    }

    /// One `BEGIN IMMEDIATE` transaction, so a code is spent, or an attempt counted, exactly once.
    public func consumeFirstFactorVerification(
        _ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int
    ) async throws(SQLiteEnrollmentStoreError) -> PhoneVerificationConsumption {
        try await transaction { () throws(SQLiteEnrollmentStoreError) -> PhoneVerificationConsumption in
            guard let verification = try await self.readPhoneVerification(id: verificationID), verification.purpose == .firstFactor else {
                return .verificationNotFound
            }
            let (kept, outcome) = verification.checking(codeDigests, at: time, maximumAttempts: maximumAttempts)
            try await self.keepPhoneVerification(kept, id: verificationID)
            return PhoneVerificationConsumption(outcome, of: verification)
        }
    }

    public func finalizePhoneEnrollment(
        verificationID: String,
        userID: String,
        codeDigests: [[UInt8]],
        at time: Int64,
        maximumAttempts: Int,
        factorID: String,
        displayName: String?,
        maximumFactorCount: Int
    ) async throws(SQLiteEnrollmentStoreError) -> PhoneEnrollmentFinalization {
        try await transaction { () throws(SQLiteEnrollmentStoreError) -> PhoneEnrollmentFinalization in
            guard let verification = try await self.readPhoneVerification(id: verificationID), verification.purpose == .enrollment,
                verification.userID == userID
            else { return .verificationNotFound }
            let duplicate = try await self.execute(
                "SELECT 1 FROM phone_factors WHERE user_id = ? AND phone_number = ?", [.text(userID), .text(verification.phoneNumber)])
            guard duplicate.isEmpty else { return .numberAlreadyEnrolled }
            let count =
                try await self.execute(
                    "SELECT (SELECT count(*) FROM factors WHERE user_id = ?1) + (SELECT count(*) FROM phone_factors WHERE user_id = ?1) AS n",
                    [.text(userID)]
                ).first?.column("n")?.integer ?? 0
            guard count < maximumFactorCount else { return .factorLimitReached }
            let (kept, outcome) = verification.checking(codeDigests, at: time, maximumAttempts: maximumAttempts)
            try await self.keepPhoneVerification(kept, id: verificationID)
            switch outcome {
            case .matched: break
            case .wrong(let attemptsLeft): return .wrongCode(attemptsLeft: attemptsLeft)
            case .exhausted, .expired: return .verificationExpired
            }
            let factor = PhoneFactorRecord(
                id: factorID, userID: userID, displayName: displayName, enrolledAt: time, phoneNumber: verification.phoneNumber)
            try await self.execute(
                "INSERT INTO phone_factors (\(Self.phoneFactorColumns)) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(factor.id), .text(factor.userID), factor.displayName.map { .text($0) } ?? .null, .integer(.init(factor.enrolledAt)),
                    .text(factor.phoneNumber),
                ])
            return .enrolled(factor)
        }
    }

    /// One `BEGIN IMMEDIATE` transaction: of concurrent completions with one verification, the
    /// first to take the write lock spends it; the others find it gone.
    public func completeSignIn(
        credential: PendingSignInRecord,
        phoneVerificationID verificationID: String,
        codeDigests: [[UInt8]],
        maximumAttempts: Int,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(SQLiteEnrollmentStoreError) -> SignInCompletion {
        try await transaction { () throws(SQLiteEnrollmentStoreError) -> SignInCompletion in
            if let refusal = try await self.refuseCredential(credential, at: time) { return refusal }
            guard let verification = try await self.readPhoneVerification(id: verificationID), verification.purpose == .signIn,
                verification.credentialID == credential.id, verification.userID == credential.userID, let factorID = verification.enrollmentID
            else { return .verificationNotFound }
            if let until = try await self.readFailureCounter(key: factorID).lockEnd(at: time) {
                return .locked(until: until)
            }
            let factor = try await self.execute(
                "SELECT 1 FROM phone_factors WHERE id = ? AND user_id = ?", [.text(factorID), .text(credential.userID)])
            guard !factor.isEmpty else { return .factorNotFound }
            let (kept, outcome) = verification.checking(codeDigests, at: time, maximumAttempts: maximumAttempts)
            try await self.keepPhoneVerification(kept, id: verificationID)
            switch outcome {
            case .matched: break
            case .wrong: return .codeRejected
            case .exhausted, .expired: return .verificationExpired
            }
            try await self.spend(credential)
            try await self.execute("DELETE FROM failure_counters WHERE key = ?", [.text(factorID)])
            _ = try await self.insertSessionRow(session, maximumPerUser: maximumSessionsPerUser)
            return .completed
        }
    }

    // MARK: Rows

    /// Writes back a verification after a check: its counted attempt, or its deletion. The caller
    /// holds a transaction.
    private func keepPhoneVerification(_ kept: PhoneVerificationRecord?, id: String) async throws(SQLiteEnrollmentStoreError) {
        if let kept {
            try await execute("UPDATE phone_verifications SET failed_attempts = ? WHERE id = ?", [.integer(kept.failedAttempts), .text(id)])
        } else {
            try await execute("DELETE FROM phone_verifications WHERE id = ?", [.text(id)])
        }
    }

    /// The caller holds ``lock``.
    private func readPhoneVerification(id: String, on role: ConnectionRole = .writer) async throws(SQLiteEnrollmentStoreError)
        -> PhoneVerificationRecord?
    {
        let rows = try await execute("SELECT \(Self.phoneVerificationColumns) FROM phone_verifications WHERE id = ?", [.text(id)], on: role)
        return try rows.first.map { row throws(SQLiteEnrollmentStoreError) in try RowReader(row: row).phoneVerificationRecord() }
    }

    func phoneFactorRecord(_ row: SQLiteRow) throws(SQLiteEnrollmentStoreError) -> PhoneFactorRecord {
        try RowReader(row: row).phoneFactorRecord()
    }
}
