internal import OTPCore
internal import OTPWebAuthn

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension MultiFactorService {
    /// Starts a passkey sign-in (Firebase's `passkeySignIn:start`): options naming no user, for
    /// the authenticator to offer the user's discoverable passkeys.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/passkeyNotEnabled``, or
    ///   ``AuthErrorCode/internalError`` when the store fails.
    public func startPasskeySignIn() async throws(AuthError) -> PasskeyRequestOptions {
        let (relyingParty, settings) = try passkeyRelyingParty()
        let challenge = try await newPasskeyChallenge(.signIn, userID: nil, userHandle: nil)
        return PasskeyRequestOptions(
            challenge: challenge, relyingPartyID: relyingParty.id, userVerification: settings.userVerification, allowedCredentials: [],
            timeout: settings.challengeLifetime * 1_000)
    }

    /// Signs in with a passkey (Firebase's `passkeySignIn:finalize`): the assertion answers a
    /// challenge of ``startPasskeySignIn()``, by a registered passkey whose user handle it carries,
    /// with a valid signature and a signature counter that went up.
    ///
    /// No second factor is asked for: Firebase's SDKs cannot answer one after a passkey. A passkey
    /// that verified the user is two factors in one (the device and a PIN or a biometric); one that
    /// did not (``PasskeySettings/userVerification`` `preferred`) signs in only accounts without
    /// second factors.
    ///
    /// - Returns: The signed-in user; its ``User/providerID`` is `passkey`.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidAuthenticatorResponse`` (any WebAuthn
    ///   check, a challenge unknown or used, a counter that did not go up: the passkey may have
    ///   been cloned, which is logged), ``AuthErrorCode/passkeyChallengeTimeout``,
    ///   ``AuthErrorCode/missingPasskeyEnrollment``, ``AuthErrorCode/userDisabled``,
    ///   ``AuthErrorCode/passkeyNotEnabled`` or ``AuthErrorCode/internalError``.
    public func finalizePasskeySignIn(_ response: PasskeyAssertionResponse) async throws(AuthError) -> AuthDataResult {
        let (relyingParty, settings) = try passkeyRelyingParty()
        let ceremony = try await takePasskeyChallenge(from: response.clientDataJSON, ceremony: .signIn, userID: nil)
        let credentialID = response.credentialID
        guard let passkey = try await storeCall("reading a passkey", { try await store.passkey(credentialID: credentialID) }) else {
            throw AuthError(.missingPasskeyEnrollment, "no passkey is registered with this credential: it was removed, or belongs to another site")
        }
        guard passkey.enrollmentID == nil else {
            throw AuthError(.missingPasskeyEnrollment, "this credential is enrolled as a second factor: sign in with the first factor, then with it")
        }
        // Section 7.2, step 6: the options named no user, so the handle says whose it is.
        guard let handle = response.userHandle, ConstantTime.equal(handle, passkey.userHandle) else {
            throw invalidAuthenticatorResponse("the assertion's user handle is missing or not the passkey's owner's")
        }
        let verified: VerifiedAssertion
        do {
            verified = try relyingParty.verifyAssertion(
                clientData: ceremony.clientData, authenticatorData: response.authenticatorData, signature: response.signature,
                challenge: ceremony.clientData.challenge, userVerification: settings.userVerification, publicKey: passkey.publicKey,
                signCount: passkey.signCount, backupEligible: passkey.isBackupEligible)
        } catch {
            if case .signCountNotIncreased = error {
                logger.warning("passkey counter did not increase: possibly cloned", metadata: ["user": "\(passkey.userID)", "reason": "\(error)"])
            }
            throw invalidAuthenticatorResponse(error.description)
        }
        let now = clock.now()
        guard let account = try await storeCall("reading an account", { try await store.account(id: passkey.userID) }) else {
            throw AuthError(.missingPasskeyEnrollment, "the passkey's account was deleted")
        }
        guard !account.isDisabled else { throw userDisabled() }
        let factors = try await enrolledFactors(userID: account.id)
        guard verified.userVerified || factors.isEmpty else {
            throw invalidAuthenticatorResponse("this account has second factors: sign in with a passkey that verifies you (a PIN or a biometric)")
        }
        let use = PasskeyUse(signCount: verified.signCount, isUserVerified: verified.userVerified, isBackedUp: verified.backedUp, at: now)
        guard
            try await storeCall(
                "recording a passkey's use",
                { try await store.recordPasskeyUse(credentialID: credentialID, previousSignCount: passkey.signCount, use: use) })
        else {
            throw invalidAuthenticatorResponse("the passkey signed in at the same time elsewhere: sign in again")
        }
        try await storeCall("recording a sign-in") { try await store.recordAccountSignIn(id: account.id, at: now, rehash: nil) }
        let linked = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: account.id) }
        logger.info("signed in with a passkey", metadata: ["user": "\(account.id)"])
        let user = try await startSession(
            firstFactorIdentity(account, provider: .passkey, linked: linked), at: now, secondFactor: nil, enrolledFactors: factors)
        return AuthDataResult(user: user, secondFactor: nil)
    }

    // MARK: Shared steps

    /// Every passkey of `userID`, second factors too, oldest first.
    func passkeys(userID: String) async throws(AuthError) -> [PasskeyRecord] {
        try await storeCall("reading passkeys") { try await store.passkeys(userID: userID) }
    }

    /// The passkeys `userID` enrolled as second factors, oldest first.
    func passkeyFactors(userID: String) async throws(AuthError) -> [PasskeyRecord] {
        try await passkeys(userID: userID).filter { $0.enrollmentID != nil }
    }

    /// The user handle of `userID`'s new passkey: its other passkeys', so that an authenticator
    /// keeps one account for the user, or 32 random bytes for the first.
    func passkeyUserHandle(among passkeys: [PasskeyRecord]) throws(AuthError) -> [UInt8] {
        if let handle = passkeys.first?.userHandle { return handle }
        var handle = [UInt8](repeating: 0, count: 32)
        guard handle.withUnsafeMutableBytes(SecureRandom.fill) else {
            throw AuthError(.internalError, "the server could not make a random user handle: try again later")
        }
        return handle
    }

    /// The relying party and its settings, or the error that says passkeys are off.
    func passkeyRelyingParty() throws(AuthError) -> (RelyingParty, PasskeySettings) {
        let settings = configuration.passkeys
        guard let relyingParty = settings.relyingParty else {
            throw AuthError(.passkeyNotEnabled, "this server offers no passkeys: configure a relying party ID and its origins")
        }
        return (relyingParty, settings)
    }

    /// 32 random bytes stored, by their digest, as the challenge of a `ceremony` of `userID`.
    func newPasskeyChallenge(_ ceremony: PasskeyCeremony, userID: String?, userHandle: [UInt8]?) async throws(AuthError) -> [UInt8] {
        var challenge = [UInt8](repeating: 0, count: 32)
        guard challenge.withUnsafeMutableBytes(SecureRandom.fill), let digest = Checksum.sha256(challenge) else {
            throw AuthError(.internalError, "the server could not make a random challenge: try again later")
        }
        let record = PasskeyChallengeRecord(
            digest: digest, ceremony: ceremony, userID: userID, userHandle: userHandle,
            expiresAt: clock.now() + configuration.passkeys.challengeLifetime)
        try await storeCall("storing a passkey challenge") { try await store.insertPasskeyChallenge(record) }
        return challenge
    }

    /// The challenge `clientDataJSON` answers, taken from the store (so it answers once): it must
    /// be of `ceremony`, for `userID`, unexpired. With the client data parsed, and the user handle
    /// a registration's options gave.
    func takePasskeyChallenge(from clientDataJSON: [UInt8], ceremony: PasskeyCeremony, userID: String?) async throws(AuthError) -> (
        clientData: CollectedClientData, userHandle: [UInt8]?
    ) {
        let clientData: CollectedClientData
        do {
            clientData = try CollectedClientData(clientDataJSON)
        } catch {
            throw invalidAuthenticatorResponse(error.description)
        }
        guard let digest = Checksum.sha256(clientData.challenge) else {
            throw AuthError(.internalError, "the server could not digest the challenge: try again later")
        }
        guard let record = try await storeCall("taking a passkey challenge", { try await store.takePasskeyChallenge(digest: digest) }) else {
            throw invalidAuthenticatorResponse("the response answers no ceremony under way (its challenge was used, or never made here): start again")
        }
        guard record.ceremony == ceremony, record.userID == userID else {
            throw invalidAuthenticatorResponse("the response answers another ceremony's challenge: start again")
        }
        let now = clock.now()
        guard now <= record.expiresAt else {
            throw AuthError(.passkeyChallengeTimeout, "the ceremony's challenge expired \(now - record.expiresAt) seconds ago: start again")
        }
        return (clientData, record.userHandle)
    }

    func invalidAuthenticatorResponse(_ detail: String) -> AuthError {
        AuthError(.invalidAuthenticatorResponse, "the passkey's response was refused: \(detail)")
    }
}
