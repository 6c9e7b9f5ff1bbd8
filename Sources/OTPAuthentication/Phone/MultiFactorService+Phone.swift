internal import OTPCore
internal import OTPPhoneNumber
internal import OTPSealing

extension MultiFactorService {
    // MARK: Enrollment

    /// `mfaEnrollment:start` for a phone: checks that the user may enroll this number, then sends it
    /// a code.
    func startPhoneEnrollment(_ user: User, phoneNumber text: String) async throws(AuthError) -> String {
        try requirePhoneEnabled()
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "enrolling a second factor")
        try checkMayEnroll(user)
        let number = try parsePhoneNumber(text)
        let userID = user.identity.userID
        let factors = try await enrolledFactors(userID: userID)
        guard !factors.contains(where: { $0.phoneNumber == number }) else {
            throw AuthError(.secondFactorAlreadyEnrolled, "this phone number is already enrolled as a second factor of the user")
        }
        guard factors.count < MultiFactorConfiguration.maximumFactorCount else { throw factorLimitReached(factors.count) }
        return try await sendCode(.enrollment, userID: userID, enrollmentID: nil, credentialID: nil, to: number, now: now)
    }

    /// `mfaEnrollment:finalize` for a phone: checks the code and enrolls the number it went to.
    func finalizePhoneEnrollment(_ user: User, credential: PhoneAuthCredential, displayName: String?) async throws(AuthError) {
        try requirePhoneEnabled()
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "enrolling a second factor")
        try checkMayEnroll(user)
        let (verificationID, digests) = try phoneCodeDigests(credential)
        let userID = user.identity.userID
        let factorID = try newID()
        let settings = configuration.phone
        let event = auditEvent(.factorEnrolled, userID: userID, factorKind: .phone, factorID: factorID)
        let outcome = try await storeCall("enrolling the phone factor", recording: event) {
            try await store.finalizePhoneEnrollment(
                verificationID: verificationID, userID: userID, codeDigests: digests, at: now, maximumAttempts: settings.maximumAttempts,
                factorID: factorID, displayName: displayName, maximumFactorCount: MultiFactorConfiguration.maximumFactorCount)
        }
        switch outcome {
        case .enrolled(let factor):
            let revoked = try await storeCall("revoking other sessions") { try await store.removeSessions(userID: userID, except: user.sessionID) }
            user.withState { $0.enrolledFactors.append(MultiFactorInfo(factor, masked: false)) }
            logger.info("phone factor enrolled", metadata: ["user": "\(userID)", "enrollment": "\(factor.id)", "revoked-sessions": "\(revoked)"])
        case .verificationNotFound:
            throw AuthError(
                .invalidVerificationID,
                "no phone enrollment of this user matches this verification id (it was finalized already, expired, or never started): send a new code"
            )
        case .verificationExpired:
            throw codeExpired()
        case .wrongCode(let attemptsLeft):
            throw AuthError(.invalidVerificationCode, "wrong code: enter the code of the text message (\(attemptsLeft) attempts left)")
        case .numberAlreadyEnrolled:
            throw AuthError(.secondFactorAlreadyEnrolled, "this phone number is already enrolled as a second factor of the user")
        case .factorLimitReached:
            throw factorLimitReached()
        }
    }

    // MARK: Sign-in

    /// `mfaSignIn:start` for a phone factor: checks the pending sign-in, then sends a code to the
    /// number the factor was enrolled with.
    func startPhoneSignIn(_ credential: PendingSignInRecord, enrollmentID: String) async throws(AuthError) -> String {
        try requirePhoneEnabled()
        let now = try await requireOpenSignIn(credential, factor: enrollmentID)
        let userID = credential.userID
        guard let factor = try await storeCall("reading the phone factor", { try await store.phoneFactor(id: enrollmentID) }),
            factor.userID == userID
        else {
            throw AuthError(.multiFactorInfoNotFound, "the user has no phone factor with this enrollment id: pick one of the resolver's phone hints")
        }
        return try await sendCode(.signIn, userID: userID, enrollmentID: factor.id, credentialID: credential.id, to: factor.phoneNumber, now: now)
    }

    /// `mfaSignIn:finalize` for a phone: one store call checks the credential, the verification and
    /// the lock, spends the code and stores the session.
    func finalizePhoneSignIn(_ resolver: MultiFactorResolver, credential: PhoneAuthCredential) async throws(AuthError) -> AuthDataResult {
        let (verificationID, digests) = try phoneCodeDigests(credential)
        let now = clock.now()
        let credential = resolver.credential
        // Read first for the factor the code went to, which the session records.
        guard let verification = try await storeCall("reading the verification", { try await store.phoneVerification(id: verificationID) }),
            verification.purpose == .signIn, verification.credentialID == credential.id, let enrollmentID = verification.enrollmentID
        else {
            throw AuthError(
                .invalidVerificationID,
                "no code of this sign-in matches this verification id: send a code with verifyPhoneNumber(with:multiFactorSession:)")
        }
        let hint =
            resolver.hints.first { $0.uid == enrollmentID }
            ?? MultiFactorInfo(uid: enrollmentID, displayName: nil, enrollmentTime: 0, factorID: PhoneMultiFactorID)
        let session = try newSession(resolver.identity, at: now, secondFactor: hint)
        let limit = configuration.maximumSessionsPerUser
        let attempts = configuration.phone.maximumAttempts
        let event = auditEvent(
            .signedIn, userID: credential.userID, factorKind: .phone, factorID: enrollmentID, provider: resolver.identity.provider.rawValue)
        let completion = try await storeCall("completing the sign-in", recording: event) {
            try await store.completeSignIn(
                credential: credential, phoneVerificationID: verificationID, codeDigests: digests, maximumAttempts: attempts, at: now,
                session: session, maximumSessionsPerUser: limit)
        }
        switch completion {
        case .completed:
            break
        case .credentialNotFound, .credentialExpired, .locked:
            throw refusal(completion, now: now)
        case .verificationNotFound:
            throw AuthError(
                .invalidVerificationID, "this code was used or replaced already: send a new code with verifyPhoneNumber(with:multiFactorSession:)")
        case .verificationExpired:
            throw codeExpired()
        case .factorNotFound:
            throw AuthError(.multiFactorInfoNotFound, "the phone factor was unenrolled: pick another of the resolver's hints")
        case .codeRejected, .stepRejected:
            throw await failure(
                key: enrollmentID, kind: "phone factor", now: now, reason: "wrong code: enter the code of the text message",
                signingIn: credential.userID)
        }
        logger.info("signed in with a phone factor", metadata: ["user": "\(resolver.identity.userID)", "enrollment": "\(enrollmentID)"])
        let user = signedInUser(resolver.identity, session: session, secondFactor: hint, enrolledFactors: resolver.hints)
        return AuthDataResult(user: user, secondFactor: hint)
    }

    // MARK: First factor

    /// `accounts:sendVerificationCode`: sends a code to a number that is to sign in or be linked.
    func startFirstFactorPhoneVerification(_ text: String) async throws(AuthError) -> String {
        try requirePhoneEnabled()
        let number = try parsePhoneNumber(text)
        return try await sendCode(.firstFactor, userID: "", enrollmentID: nil, credentialID: nil, to: number, now: clock.now())
    }

    /// The number a first-factor code proves, after spending the code in one store operation.
    func verifiedPhoneNumber(verificationID: String, code: String) async throws(AuthError) -> String {
        try requirePhoneEnabled()
        let (id, digests) = try phoneCodeDigests(PhoneAuthCredential(verificationID: verificationID, verificationCode: code))
        let now = clock.now()
        let attempts = configuration.phone.maximumAttempts
        let outcome = try await storeCall("checking the code") {
            try await store.consumeFirstFactorVerification(id, codeDigests: digests, at: now, maximumAttempts: attempts)
        }
        switch outcome {
        case .consumed(let verification):
            return verification.phoneNumber
        case .verificationNotFound:
            throw AuthError(
                .invalidVerificationID, "no code matches this verification id (it was used, expired, or never sent): send a new code")
        case .verificationExpired:
            throw codeExpired()
        case .wrongCode(let attemptsLeft):
            throw AuthError(.invalidVerificationCode, "wrong code: enter the code of the text message (\(attemptsLeft) attempts left)")
        }
    }

    // MARK: Shared steps

    private func requirePhoneEnabled() throws(AuthError) {
        guard configuration.phone.isEnabled else {
            throw AuthError(.operationNotAllowed, "SMS codes are disabled for this project: enable configuration.phone")
        }
    }

    func parsePhoneNumber(_ text: String) throws(AuthError) -> String {
        if let test = configuration.phone.testNumber(text) { return test }
        do {
            return try PhoneNumber(parsing: text, defaultRegion: configuration.phone.defaultRegion).e164
        } catch {
            throw AuthError(error == .libraryFailure ? .internalError : .invalidPhoneNumber, error.description)
        }
    }

    /// Throttles, draws a code (or takes a test number's), stores its verification and sends it;
    /// a send that fails leaves no verification behind.
    private func sendCode(
        _ purpose: PhoneVerificationRecord.Purpose, userID: String, enrollmentID: String?, credentialID: String?, to number: String, now: Int64
    ) async throws(AuthError) -> String {
        let settings = configuration.phone
        let testCode = settings.testPhoneNumbers[number]
        guard testCode != nil || smsSender != nil else {
            throw AuthError(
                .operationNotAllowed, "this server sends no text messages, only its test phone numbers take codes: configure an SMS sender")
        }
        if testCode == nil {
            try await consumeQuota(
                "sms-number:\(number)", window: settings.sendWindow, limit: settings.sendsPerNumber, now: now, code: .tooManyRequests)
            // A first-factor code has no user yet: its number's own limits are the ones that apply.
            if !userID.isEmpty {
                try await consumeQuota(
                    "sms-user:\(userID)", window: settings.sendWindow, limit: settings.sendsPerUser, now: now, code: .tooManyRequests)
            }
            try await consumeQuota("sms-day:\(number)", window: 86_400, limit: settings.dailySendsPerNumber, now: now, code: .quotaExceeded)
        }
        guard let code = testCode ?? Self.randomCode() else {
            throw AuthError(.internalError, "could not draw a code: OpenSSL's random generator failed")
        }
        let id = try newID()
        let digest: [UInt8]
        do {
            digest = try codeDigestKeys.codeDigest(code, context: Self.phoneCodeContext(id))
        } catch {
            throw AuthError(.internalError, "could not digest the code: \(error)")
        }
        let record = PhoneVerificationRecord(
            id: id, purpose: purpose, userID: userID, enrollmentID: enrollmentID, credentialID: credentialID, phoneNumber: number,
            codeDigest: digest, createdAt: now, expiresAt: now + settings.codeLifetime, failedAttempts: 0)
        try await storeCall("storing the verification") { try await store.insertPhoneVerification(record) }
        // The number, masked, only in the rare error line: masking parses it again, which costs
        // as much as the rest of a send.
        func masked() -> String { (try? PhoneNumber(parsing: number))?.masked ?? "a number" }
        if testCode == nil {
            do throws(SMSSendError) {
                guard let smsSender else { throw SMSSendError(.misconfigured("no SMS sender"), sender: "none") }
                try await smsSender.send(settings.message(code: code), to: number)
            } catch {
                _ = try? await storeCall("discarding an unsent verification") { try await store.removePhoneVerification(id: id) }
                logger.error("text message not sent", metadata: ["user": "\(userID)", "to": "\(masked())", "error": "\(error)"])
                throw AuthError(.internalError, "the text message with the code could not be sent: try again later", underlyingError: error)
            }
        }
        logger.info("verification code sent", metadata: ["user": "\(userID)", "purpose": "\(purpose.rawValue)"])
        return id
    }

    private func consumeQuota(_ key: String, window: Int64, limit: Int, now: Int64, code: AuthErrorCode) async throws(AuthError) {
        let outcome = try await storeCall("counting a text message") { try await store.consumeQuota(key: key, window: window, limit: limit, at: now) }
        if case .exceeded(let until) = outcome {
            throw AuthError(code, "too many codes were sent for this number or user: try again in \(until - now) seconds")
        }
    }

    /// The verification id and the code's digests under every key, from a credential.
    private func phoneCodeDigests(_ credential: PhoneAuthCredential) throws(AuthError) -> (String, [[UInt8]]) {
        guard !credential.verificationID.isEmpty else {
            throw AuthError(.missingVerificationID, "no verification id given: pass the id verifyPhoneNumber returned")
        }
        guard !credential.verificationCode.isEmpty else {
            throw AuthError(.missingVerificationCode, "no verification code given: enter the code of the text message")
        }
        do {
            return (
                credential.verificationID,
                try codeDigestKeys.codeDigests(credential.verificationCode, context: Self.phoneCodeContext(credential.verificationID))
            )
        } catch {
            throw AuthError(.internalError, "could not digest the code: \(error)")
        }
    }

    private func codeExpired() -> AuthError {
        AuthError(.sessionExpired, "the code expired or took too many wrong attempts: send a new code")
    }

    /// What a code's digest is bound to: its verification, so a digest is useless elsewhere.
    static func phoneCodeContext(_ verificationID: String) -> String {
        "phone verification\u{0}\(verificationID)"
    }

    /// Six uniformly drawn digits from OpenSSL's CSPRNG, or `nil` when it fails.
    static func randomCode() -> String? {
        // Values from 4,294,000,000 up are drawn again, so that the remainder is uniform.
        let bound: UInt32 = 4_294_000_000
        var value: UInt32 = .max
        while value >= bound {
            guard withUnsafeMutableBytes(of: &value, { SecureRandom.fill($0) }) else { return nil }
        }
        let digits = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
