internal import OTPCore
internal import OTPSealing
internal import OTPWebAuthn

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

extension User {
    /// Starts registering a passkey for this user (Firebase's `passkeyEnrollment:start`, iOS's
    /// `User.startPasskeyEnrollment(withName:)`): options for `navigator.credentials.create`, with
    /// a challenge good for one registration.
    ///
    /// Registering is a change of how the account is signed in to, so it needs a recent sign-in
    /// (and, on an account with second factors, one that completed one), as a new password does.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/passkeyNotEnabled``,
    ///   ``AuthErrorCode/passkeyLimitExceeded``, ``AuthErrorCode/requiresRecentLogin``,
    ///   ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/internalError``.
    public func startPasskeyEnrollment() async throws(AuthError) -> PasskeyCreationOptions {
        let (relyingParty, settings) = try service.passkeyRelyingParty()
        let account = try await passkeyAccount(for: "registering a passkey")
        let passkeys = try await storedPasskeys()
        guard passkeys.filter({ $0.enrollmentID == nil }).count < settings.maximumPerUser else { throw passkeyLimitExceeded(settings) }
        let handle = try service.passkeyUserHandle(among: passkeys)
        let challenge = try await service.newPasskeyChallenge(.registration, userID: uid, userHandle: handle)
        let name = account.email ?? uid
        return PasskeyCreationOptions(
            challenge: challenge, relyingPartyID: relyingParty.id, relyingPartyName: settings.relyingPartyName, userHandle: handle,
            userName: name, userDisplayName: account.displayName ?? name, algorithms: relyingParty.algorithms,
            excludedCredentials: passkeys.map(\.credentialID), userVerification: settings.userVerification, requiresResidentKey: true,
            timeout: settings.challengeLifetime * 1_000)
    }

    /// Registers the passkey an authenticator made from ``startPasskeyEnrollment()``'s options
    /// (Firebase's `passkeyEnrollment:finalize`), named `name` (Firebase's "Unnamed Passkey"
    /// without one).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidAuthenticatorResponse`` (any WebAuthn
    ///   check; the challenge is used up either way), ``AuthErrorCode/passkeyChallengeTimeout``,
    ///   ``AuthErrorCode/passkeyExists`` (this credential is registered, to this user or another),
    ///   ``AuthErrorCode/passkeyLimitExceeded``, ``AuthErrorCode/requiresRecentLogin``,
    ///   ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/internalError``.
    @discardableResult
    public func finalizePasskeyEnrollment(_ response: PasskeyRegistrationResponse, name: String?) async throws(AuthError) -> PasskeyInfo {
        let (relyingParty, settings) = try service.passkeyRelyingParty()
        _ = try await passkeyAccount(for: "registering a passkey")
        let ceremony = try await service.takePasskeyChallenge(from: response.clientDataJSON, ceremony: .registration, userID: uid)
        let credential: RegisteredCredential
        do {
            credential = try await relyingParty.verifyRegistration(
                clientData: ceremony.clientData, attestationObject: response.attestationObject, challenge: ceremony.clientData.challenge,
                userVerification: settings.userVerification, now: Date(timeIntervalSince1970: TimeInterval(service.clock.now())))
        } catch {
            throw service.invalidAuthenticatorResponse(error.description)
        }
        if let claimed = response.credentialID, claimed != credential.id {
            throw service.invalidAuthenticatorResponse("the credential id sent is not the one the authenticator attested")
        }
        let record = PasskeyRecord(
            credentialID: credential.id, userID: uid, userHandle: ceremony.userHandle ?? [],
            name: name.flatMap { $0.isEmpty ? nil : $0 } ?? "Unnamed Passkey",
            publicKey: credential.publicKey, signCount: credential.signCount, isUserVerified: credential.userVerified,
            isBackupEligible: credential.backupEligible, isBackedUp: credential.backedUp, aaguid: credential.aaguid, createdAt: service.clock.now())
        let event = service.auditEvent(
            .passkeyAdded, userID: uid, factorID: Base64URL.encode(record.credentialID), provider: FirstFactorProvider.passkey.rawValue)
        let insertion = try await service.storeCall("storing a passkey", recording: event) {
            try await service.store.insertPasskey(record, maximumPerUser: settings.maximumPerUser)
        }
        switch insertion {
        case .inserted:
            service.logger.info("passkey registered", metadata: ["user": "\(uid)", "attestation": "\(credential.attestationFormat)"])
            return PasskeyInfo(record)
        case .credentialInUse:
            throw AuthError(.passkeyExists, "this passkey is registered already: use it to sign in")
        case .limitReached:
            throw passkeyLimitExceeded(settings)
        case .accountNotFound:
            throw AuthError(.userTokenExpired, "this account was deleted")
        }
    }

    /// The user's passkeys, oldest first (Firebase's `User.enrolledPasskeys`).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` when the session ended, or
    ///   ``AuthErrorCode/internalError``.
    public func enrolledPasskeys() async throws(AuthError) -> [PasskeyInfo] {
        _ = try await service.liveSession(self)
        return try await storedPasskeys().filter { $0.enrollmentID == nil }.map(PasskeyInfo.init)
    }

    /// Renames the user's passkey `credentialID`.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/missingPasskeyEnrollment`` when the user has no
    ///   such passkey, ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/internalError``.
    public func renamePasskey(withCredentialID credentialID: [UInt8], to name: String) async throws(AuthError) {
        _ = try await service.liveSession(self)
        let userID = uid
        let event = service.auditEvent(.passkeyRenamed, userID: userID, factorID: Base64URL.encode(credentialID))
        guard
            try await service.storeCall(
                "renaming a passkey", recording: event,
                { try await service.store.renamePasskey(credentialID: credentialID, userID: userID, name: name) })
        else { throw AuthError(.missingPasskeyEnrollment, "this user has no passkey with this credential id") }
    }

    /// Removes the user's passkey `credentialID` (Firebase's `unenrollPasskey`); an id the user
    /// has no passkey with is no error, as in Firebase. The last passkey of an account with no
    /// other way in (no password, no linked provider: an anonymous account) is kept.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/operationNotAllowed`` for that last passkey,
    ///   ``AuthErrorCode/requiresRecentLogin``, ``AuthErrorCode/userTokenExpired`` or
    ///   ``AuthErrorCode/internalError``.
    public func unenrollPasskey(withCredentialID credentialID: [UInt8]) async throws(AuthError) {
        let account = try await passkeyAccount(for: "removing a passkey")
        let passkeys = try await storedPasskeys().filter { $0.enrollmentID == nil }
        guard passkeys.contains(where: { $0.credentialID == credentialID }) else { return }
        let userID = uid
        if passkeys.count == 1, account.passwordHash == nil {
            let linked = try await service.storeCall("reading linked identities") { try await service.store.providerIdentities(accountID: userID) }
            guard !linked.isEmpty else {
                throw AuthError(
                    .operationNotAllowed,
                    "this passkey is the only way to sign in to this account: add a password or a provider first, or delete the account")
            }
        }
        let event = service.auditEvent(.passkeyRemoved, userID: userID, factorID: Base64URL.encode(credentialID))
        if try await service.storeCall(
            "removing a passkey", recording: event, { try await service.store.removePasskey(credentialID: credentialID, userID: userID) })
        {
            service.logger.info("passkey removed", metadata: ["user": "\(userID)"])
        }
    }

    // MARK: Shared steps

    /// The user's account, after checking that this session may change how it is signed in to.
    private func passkeyAccount(for operation: String) async throws(AuthError) -> AccountRecord {
        let session = try await service.liveSession(self)
        try await service.requireCredentialChange(session, for: operation, needsSecondFactor: true)
        let userID = uid
        guard let account = try await service.storeCall("reading an account", { try await service.store.account(id: userID) }) else {
            // A host's own first factor (signIn(_:) with a FirstFactorIdentity) makes no account.
            throw AuthError(
                .operationNotAllowed,
                "passkeys sign in to accounts of this service, and \(userID) has none (it was deleted, or signed in with the host's own first factor)"
            )
        }
        guard !account.isDisabled else { throw service.userDisabled() }
        return account
    }

    /// Every passkey of the user's, second factors too.
    private func storedPasskeys() async throws(AuthError) -> [PasskeyRecord] {
        try await service.passkeys(userID: uid)
    }

    private func passkeyLimitExceeded(_ settings: PasskeySettings) -> AuthError {
        AuthError(.passkeyLimitExceeded, "this user has \(settings.maximumPerUser) passkeys, the most allowed: remove one first")
    }
}
