public import OTPAuthentication
internal import OTPDurableStore
internal import SQLiteNIO

extension SQLiteAuthStore {
    static let phoneFactorColumns = StoredColumns.phoneFactor
    static let phoneVerificationColumns = StoredColumns.phoneVerification

    // MARK: Phone factors

    public func phoneFactors(userID: String) async throws(SQLiteAuthStoreError) -> [PhoneFactorRecord] {
        let rows = try await phoneFactorRows(userID: userID, on: .reader)
        return try rows.map { row throws(SQLiteAuthStoreError) in try phoneFactorRecord(row) }
    }

    /// On the writer, the caller holds ``lock``.
    func phoneFactorRows(userID: String, on role: ConnectionRole = .writer) async throws(SQLiteAuthStoreError) -> [SQLiteRow] {
        try await execute(
            "SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE user_id = ? ORDER BY enrolled_at, id", [.text(userID)], on: role)
    }

    public func phoneFactor(id: String) async throws(SQLiteAuthStoreError) -> PhoneFactorRecord? {
        let rows = try await execute("SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE id = ?", [.text(id)], on: .reader)
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try phoneFactorRecord(row) }
    }

    public func removePhoneFactor(id: String, userID: String) async throws(SQLiteAuthStoreError) -> PhoneFactorRecord? {
        let rows = try await transaction { () throws(SQLiteAuthStoreError) in
            let rows = try await self.execute(
                "DELETE FROM phone_factors WHERE id = ? AND user_id = ? RETURNING \(Self.phoneFactorColumns)", [.text(id), .text(userID)])
            if !rows.isEmpty {
                try await SQLiteTransaction(store: self).resetFailures(key: id)
                try await self.recordAudit()
            }
            return rows
        }
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try phoneFactorRecord(row) }
    }

    public func renamePhoneFactor(id: String, userID: String, displayName: String?) async throws(SQLiteAuthStoreError) -> Bool {
        try await renameRow(in: "phone_factors", id: id, userID: userID, displayName: displayName)
    }

    // MARK: Verifications

    public func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws(SQLiteAuthStoreError) {
        try await locked { () throws(SQLiteAuthStoreError) in
            try await self.execute(
                "INSERT INTO phone_verifications (\(Self.phoneVerificationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(record.id), .text(record.purpose.rawValue), .text(record.userID), record.enrollmentID.map { .text($0) } ?? .null,
                    record.credentialID.map { .text($0) } ?? .null, .text(record.phoneNumber), .blob(ByteBuffer(bytes: record.codeDigest)),
                    .integer(.init(record.createdAt)), .integer(.init(record.expiresAt)), .integer(record.failedAttempts),
                ])
        }
    }

    public func phoneVerification(id: String) async throws(SQLiteAuthStoreError) -> PhoneVerificationRecord? {
        try await readPhoneVerification(id: id, on: .reader)
    }

    public func removePhoneVerification(id: String) async throws(SQLiteAuthStoreError) {
        try await locked { () throws(SQLiteAuthStoreError) in
            try await self.execute("DELETE FROM phone_verifications WHERE id = ?", [.text(id)])
        }
    }

    /// One `BEGIN IMMEDIATE` transaction, so a code is spent, or an attempt counted, exactly once.
    public func consumeFirstFactorVerification(
        _ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int
    ) async throws(SQLiteAuthStoreError) -> PhoneVerificationConsumption {
        try await transaction { () throws(SQLiteAuthStoreError) -> PhoneVerificationConsumption in
            try await SQLiteTransaction(store: self).consumeFirstFactorVerification(
                verificationID, codeDigests: codeDigests, at: time, maximumAttempts: maximumAttempts)
        }
    }

    /// One `BEGIN IMMEDIATE` transaction, so the factor limit and the number's uniqueness per user
    /// hold across processes, and a code is spent, or an attempt counted, exactly once.
    public func finalizePhoneEnrollment(
        verificationID: String,
        userID: String,
        codeDigests: [[UInt8]],
        at time: Int64,
        maximumAttempts: Int,
        factorID: String,
        displayName: String?,
        maximumFactorCount: Int
    ) async throws(SQLiteAuthStoreError) -> PhoneEnrollmentFinalization {
        try await transaction { () throws(SQLiteAuthStoreError) -> PhoneEnrollmentFinalization in
            try await SQLiteTransaction(store: self).finalizePhoneEnrollment(
                verificationID: verificationID, userID: userID, codeDigests: codeDigests, at: time, maximumAttempts: maximumAttempts,
                factorID: factorID, displayName: displayName, maximumFactorCount: maximumFactorCount)
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
    ) async throws(SQLiteAuthStoreError) -> SignInCompletion {
        try await transaction { () throws(SQLiteAuthStoreError) -> SignInCompletion in
            try await SQLiteTransaction(store: self).completePhoneSignIn(
                credential: credential, verificationID: verificationID, codeDigests: codeDigests, maximumAttempts: maximumAttempts, at: time,
                session: session, maximumSessionsPerUser: maximumSessionsPerUser)
        }
    }

    // MARK: Rows

    /// The caller holds ``lock``.
    func readPhoneVerification(id: String, on role: ConnectionRole = .writer) async throws(SQLiteAuthStoreError)
        -> PhoneVerificationRecord?
    {
        let rows = try await execute("SELECT \(Self.phoneVerificationColumns) FROM phone_verifications WHERE id = ?", [.text(id)], on: role)
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).phoneVerificationRecord() }
    }

    func phoneFactorRecord(_ row: SQLiteRow) throws(SQLiteAuthStoreError) -> PhoneFactorRecord {
        try RowReader(row: row).phoneFactorRecord()
    }

    /// One `BEGIN IMMEDIATE` transaction, so the factor limit holds across processes.
    public func importFactors(
        userID: String, totp: [FactorRecord], phone: [PhoneFactorRecord], maximumFactorCount: Int
    ) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            try await SQLiteTransaction(store: self).importFactors(userID: userID, totp: totp, phone: phone, maximumFactorCount: maximumFactorCount)
        }
    }
}
