internal import OTPCore
internal import OTPWebAuthn

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension MultiFactorService {
    // MARK: Enrollment

    /// `mfaEnrollment:start` for a passkey: creation options for the user's next second factor.
    func startWebAuthnEnrollment(_ user: User) async throws(AuthError) -> PasskeyCreationOptions {
        let (relyingParty, settings) = try passkeyRelyingParty()
        let session = try await liveSession(user)
        try requireRecentLogin(session, now: clock.now(), for: "enrolling a second factor")
        try checkMayEnroll(user)
        let userID = user.identity.userID
        _ = try await factorsLeavingRoom(userID: userID)
        let passkeys = try await passkeys(userID: userID)
        let handle = try passkeyUserHandle(among: passkeys)
        let challenge = try await newPasskeyChallenge(.factorRegistration, userID: userID, userHandle: handle)
        let name = user.identity.email ?? userID
        return PasskeyCreationOptions(
            challenge: challenge, relyingPartyID: relyingParty.id, relyingPartyName: settings.relyingPartyName, userHandle: handle,
            userName: name, userDisplayName: name, algorithms: relyingParty.algorithms, excludedCredentials: passkeys.map(\.credentialID),
            userVerification: .preferred, requiresResidentKey: false, timeout: settings.challengeLifetime * 1_000)
    }

    /// `mfaEnrollment:finalize` for a passkey: verifies the registration and enrolls its
    /// credential, ending the user's other sessions as every enrollment does.
    func finalizeWebAuthnEnrollment(_ user: User, response: PasskeyRegistrationResponse, displayName: String?) async throws(AuthError) {
        let (relyingParty, _) = try passkeyRelyingParty()
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "enrolling a second factor")
        try checkMayEnroll(user)
        let userID = user.identity.userID
        let ceremony = try await takePasskeyChallenge(from: response.clientDataJSON, ceremony: .factorRegistration, userID: userID)
        let credential: RegisteredCredential
        do {
            credential = try await relyingParty.verifyRegistration(
                clientData: ceremony.clientData, attestationObject: response.attestationObject, challenge: ceremony.clientData.challenge,
                userVerification: .preferred, now: Date(timeIntervalSince1970: TimeInterval(now)))
        } catch {
            throw invalidAuthenticatorResponse(error.description)
        }
        if let claimed = response.credentialID, claimed != credential.id {
            throw invalidAuthenticatorResponse("the credential id sent is not the one the authenticator attested")
        }
        let record = PasskeyRecord(
            credentialID: credential.id, userID: userID, userHandle: ceremony.userHandle ?? [], name: displayName ?? "",
            publicKey: credential.publicKey,
            signCount: credential.signCount, isUserVerified: credential.userVerified, isBackupEligible: credential.backupEligible,
            isBackedUp: credential.backedUp, aaguid: credential.aaguid, createdAt: now, enrollmentID: try newID())
        let event = auditEvent(.factorEnrolled, userID: userID, factorKind: .webauthn, factorID: record.enrollmentID)
        let insertion = try await storeCall("enrolling the passkey factor", recording: event) {
            try await store.insertPasskey(record, maximumPerUser: MultiFactorConfiguration.maximumFactorCount)
        }
        switch insertion {
        case .inserted:
            let revoked = try await storeCall("revoking other sessions") { try await store.removeSessions(userID: userID, except: user.sessionID) }
            user.withState { $0.enrolledFactors.append(MultiFactorInfo(record)) }
            logger.info(
                "passkey factor enrolled",
                metadata: ["user": "\(userID)", "enrollment": "\(record.enrollmentID ?? "")", "revoked-sessions": "\(revoked)"])
        case .credentialInUse:
            throw AuthError(.secondFactorAlreadyEnrolled, "this credential is enrolled already, as a second factor or a passkey")
        case .limitReached:
            throw factorLimitReached()
        case .accountNotFound:
            throw AuthError(.userTokenExpired, "this account was deleted")
        }
    }

    // MARK: Sign-in

    /// `mfaSignIn:start` for a passkey factor: request options that only its credential answers.
    func startWebAuthnSignIn(_ credential: PendingSignInRecord, enrollmentID: String) async throws(AuthError) -> PasskeyRequestOptions {
        let (relyingParty, settings) = try passkeyRelyingParty()
        _ = try await requireOpenSignIn(credential, factor: enrollmentID)
        let passkey = try await passkeyFactor(enrollmentID, userID: credential.userID)
        let challenge = try await newPasskeyChallenge(.factorSignIn, userID: credential.userID, userHandle: nil)
        return PasskeyRequestOptions(
            challenge: challenge, relyingPartyID: relyingParty.id, userVerification: .preferred, allowedCredentials: [passkey.credentialID],
            timeout: settings.challengeLifetime * 1_000)
    }

    /// `mfaSignIn:finalize` for a passkey factor: the assertion verified, then one store call
    /// checks the credential and the lock, records the use and stores the session. A response
    /// that does not verify counts as a wrong code does.
    func finalizeWebAuthnSignIn(_ resolver: MultiFactorResolver, enrollmentID: String, response: PasskeyAssertionResponse) async throws(AuthError)
        -> AuthDataResult
    {
        let (relyingParty, _) = try passkeyRelyingParty()
        let credential = resolver.credential
        let userID = credential.userID
        let ceremony = try await takePasskeyChallenge(from: response.clientDataJSON, ceremony: .factorSignIn, userID: userID)
        let passkey = try await passkeyFactor(enrollmentID, userID: userID)
        let now = clock.now()
        let verified: VerifiedAssertion
        do throws(WebAuthnError) {
            // Section 7.2, steps 5 and 6: the credential the options allowed, and its user's handle.
            guard response.credentialID == passkey.credentialID else { throw .mismatch("the assertion is not by this factor's credential") }
            if let handle = response.userHandle, !ConstantTime.equal(handle, passkey.userHandle) {
                throw .mismatch("the assertion's user handle is not the factor's")
            }
            verified = try relyingParty.verifyAssertion(
                clientData: ceremony.clientData, authenticatorData: response.authenticatorData, signature: response.signature,
                challenge: ceremony.clientData.challenge, userVerification: .preferred, publicKey: passkey.publicKey,
                signCount: passkey.signCount, backupEligible: passkey.isBackupEligible)
        } catch {
            if case .signCountNotIncreased = error {
                logger.warning("passkey counter did not increase: possibly cloned", metadata: ["user": "\(userID)", "enrollment": "\(enrollmentID)"])
            }
            throw await signInFailure(
                credential, failureKey: enrollmentID, kind: "passkey", now: now, reason: "the passkey's response was refused: \(error)")
        }
        let hint = MultiFactorInfo(passkey)
        let session = try newSession(resolver.identity, at: now, secondFactor: hint)
        let use = PasskeyUse(signCount: verified.signCount, isUserVerified: verified.userVerified, isBackedUp: verified.backedUp, at: now)
        let limit = configuration.maximumSessionsPerUser
        let event = auditEvent(
            .signedIn, userID: userID, factorKind: .webauthn, factorID: enrollmentID, provider: resolver.identity.provider.rawValue)
        let completion = try await storeCall("completing the sign-in", recording: event) {
            try await store.completeSignIn(
                credential: credential, passkeyEnrollmentID: enrollmentID, previousSignCount: passkey.signCount, use: use, at: now, session: session,
                maximumSessionsPerUser: limit)
        }
        switch completion {
        case .completed:
            break
        case .credentialNotFound, .credentialExpired, .locked:
            throw refusal(completion, now: now)
        case .factorNotFound:
            throw AuthError(.multiFactorInfoNotFound, "the passkey factor was unenrolled during this sign-in: sign in again")
        case .codeRejected, .stepRejected, .verificationNotFound, .verificationExpired:
            throw invalidAuthenticatorResponse("the passkey signed in at the same time elsewhere: sign in again")
        }
        logger.info("signed in with a passkey factor", metadata: ["user": "\(userID)", "enrollment": "\(enrollmentID)"])
        return AuthDataResult(
            user: signedInUser(resolver.identity, session: session, secondFactor: hint, enrolledFactors: resolver.hints), secondFactor: hint)
    }

    /// The passkey factor `enrollmentID` of `userID`.
    private func passkeyFactor(_ enrollmentID: String, userID: String) async throws(AuthError) -> PasskeyRecord {
        guard let passkey = try await passkeyFactors(userID: userID).first(where: { $0.enrollmentID == enrollmentID }) else {
            throw AuthError(
                .multiFactorInfoNotFound, "the user has no passkey factor with this enrollment id: pick one of the resolver's passkey hints")
        }
        return passkey
    }
}
