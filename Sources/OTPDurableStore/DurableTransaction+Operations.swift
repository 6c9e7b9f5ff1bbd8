package import OTPAuthentication

// The rules of `AuthStore`'s operations that span concerns, written once for the durable
// stores on their transactions' primitives. Each checks in the order the protocol documents.
extension DurableTransaction {
    /// `AuthStore.completeSignIn(credential:recoveryCodeDigests:…)`.
    package func completeRecoverySignIn(
        credential: PendingSignInRecord, digests: [[UInt8]], failureKey: String, at time: Int64, session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(Failure) -> SignInCompletion {
        try await completing(credential, at: time) { () throws(Failure) -> SignInCompletion in
            if let until = try await failureCounter(key: failureKey).lockEnd(at: time) {
                return .locked(until: until)
            }
            guard try await spendRecoveryCode(userID: credential.userID, digests: digests) else { return .codeRejected }
            try await resetFailures(key: failureKey)
            try await insertSession(session, maximumPerUser: maximumSessionsPerUser)
            try await recordAudit()
            return .completed
        }
    }

    /// `AuthStore.completeSignIn(credential:passkeyEnrollmentID:…)`.
    package func completePasskeySignIn(
        credential: PendingSignInRecord, enrollmentID: String, previousSignCount: UInt32, use: PasskeyUse, at time: Int64,
        session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws(Failure) -> SignInCompletion {
        try await completing(credential, at: time) { () throws(Failure) -> SignInCompletion in
            if let until = try await failureCounter(key: enrollmentID).lockEnd(at: time) {
                return .locked(until: until)
            }
            guard let passkey = try await lockedPasskeyFactor(enrollmentID: enrollmentID, userID: credential.userID) else { return .factorNotFound }
            guard try await recordPasskeyUse(credentialID: passkey.credentialID, previousSignCount: previousSignCount, use: use) else {
                return .codeRejected
            }
            try await resetFailures(key: enrollmentID)
            try await insertSession(session, maximumPerUser: maximumSessionsPerUser)
            try await recordAudit()
            return .completed
        }
    }

    /// `AuthStore.completeSignIn(credential:phoneVerificationID:…)`.
    package func completePhoneSignIn(
        credential: PendingSignInRecord, verificationID: String, codeDigests: [[UInt8]], maximumAttempts: Int, at time: Int64,
        session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws(Failure) -> SignInCompletion {
        try await completing(credential, at: time) { () throws(Failure) -> SignInCompletion in
            guard let verification = try await lockedPhoneVerification(id: verificationID), verification.purpose == .signIn,
                verification.credentialID == credential.id, verification.userID == credential.userID, let factorID = verification.enrollmentID
            else { return .verificationNotFound }
            if let until = try await failureCounter(key: factorID).lockEnd(at: time) {
                return .locked(until: until)
            }
            guard try await hasPhoneFactor(id: factorID, userID: credential.userID) else { return .factorNotFound }
            let (kept, refusal) = verification.signingIn(codeDigests, at: time, maximumAttempts: maximumAttempts)
            try await keepPhoneVerification(kept, id: verificationID)
            if let refusal { return refusal }
            try await resetFailures(key: factorID)
            try await insertSession(session, maximumPerUser: maximumSessionsPerUser)
            try await recordAudit()
            return .completed
        }
    }

    /// `AuthStore.finalizePhoneEnrollment(…)`.
    package func finalizePhoneEnrollment(
        verificationID: String, userID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int, factorID: String,
        displayName: String?, maximumFactorCount: Int
    ) async throws(Failure) -> PhoneEnrollmentFinalization {
        try await lockFactors(of: userID)
        guard let verification = try await lockedPhoneVerification(id: verificationID), verification.purpose == .enrollment,
            verification.userID == userID
        else { return .verificationNotFound }
        guard try await !hasPhoneFactor(number: verification.phoneNumber, userID: userID) else { return .numberAlreadyEnrolled }
        guard try await factorCount(of: userID) < maximumFactorCount else { return .factorLimitReached }
        let (kept, outcome) = verification.enrolling(
            codeDigests, at: time, maximumAttempts: maximumAttempts, factorID: factorID, displayName: displayName)
        try await keepPhoneVerification(kept, id: verificationID)
        if case .enrolled(let factor) = outcome {
            try await insertPhoneFactor(factor)
            try await recordAudit()
        }
        return outcome
    }

    /// `AuthStore.consumeFirstFactorVerification(…)`.
    package func consumeFirstFactorVerification(
        _ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int
    ) async throws(Failure) -> PhoneVerificationConsumption {
        guard let verification = try await lockedPhoneVerification(id: verificationID), verification.purpose == .firstFactor else {
            return .verificationNotFound
        }
        let (kept, outcome) = verification.checking(codeDigests, at: time, maximumAttempts: maximumAttempts)
        try await keepPhoneVerification(kept, id: verificationID)
        return PhoneVerificationConsumption(outcome, of: verification)
    }

    /// `AuthStore.completeEmailAction(digest:at:changes:accountID:)`.
    package func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?, accountID: String?) async throws(Failure)
        -> EmailActionCompletion
    {
        guard let action = try await lockedEmailAction(digest: digest) else { return .notFound }
        guard time <= action.expiresAt else {
            try await removeEmailAction(digest: digest)
            return .expired
        }
        var account: AccountRecord?
        if let changes {
            guard let accountID = accountID ?? action.accountID else { return .accountNotUpdated(.accountNotFound) }
            switch try await updateAccount(id: accountID, changes: changes) {
            case .updated(let updated): account = updated
            case let refused: return .accountNotUpdated(refused)
            }
        }
        try await removeEmailAction(digest: digest)
        try await recordAudit()
        return .completed(account: account)
    }

    /// `AuthStore.importFactors(userID:totp:phone:maximumFactorCount:)`.
    package func importFactors(
        userID: String, totp: [FactorRecord], phone: [PhoneFactorRecord], maximumFactorCount: Int
    ) async throws(Failure) -> Bool {
        try await lockFactors(of: userID)
        guard try await factorCount(of: userID) + totp.count + phone.count <= maximumFactorCount else { return false }
        for factor in totp { try await insertFactor(factor) }
        for factor in phone { try await insertPhoneFactor(factor) }
        try await recordAudit()
        return true
    }
}
