import Logging
import OTPCore
import OTPAuthentication
import OTPTestUtilities
import Synchronization
import Testing

/// A store that fails on one named operation and otherwise behaves like the in-memory store (the
/// reads of a sign-in that the protocol composes by default included).
final class FailingStore: AuthStore {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        // What a real store's error holds: a server path and SQL, which clients must never see.
        var description: String { "disk I/O error in /var/lib/otpkit/enrollments.sqlite during \(operation): INSERT INTO sessions (id) VALUES (?)" }
    }

    let base = InMemoryAuthStore()
    let failing = Mutex<String?>(nil)

    func fail(_ operation: String?) { failing.withLock { $0 = operation } }

    private func check(_ operation: String = #function) throws {
        let name = String(operation.prefix { $0 != "(" })
        if failing.withLock({ $0 }) == name { throw Failure(operation: name) }
    }

    func insertAccount(_ record: AccountRecord, identity: ProviderIdentity?) async throws -> AccountInsertion {
        try check()
        return base.insertAccount(record, identity: identity)
    }
    func account(id: String) async throws -> AccountRecord? {
        try check()
        return base.account(id: id)
    }
    func account(email: String) async throws -> AccountRecord? {
        try check()
        return base.account(email: email)
    }
    func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String, email: AccountEmailUpdate?) async throws -> ProviderLink {
        try check()
        return base.linkProviderIdentity(identity, accountID: accountID, email: email)
    }
    func linkPassword(accountID: String, email: String, passwordHash: String) async throws -> PasswordLink {
        try check()
        return base.linkPassword(accountID: accountID, email: email, passwordHash: passwordHash)
    }
    func updateAccount(id: String, changes: AccountChanges) async throws -> AccountUpdate {
        try check()
        return base.updateAccount(id: id, changes: changes)
    }
    func accounts(after id: String?, limit: Int) async throws -> [AccountRecord] {
        try check()
        return base.accounts(after: id, limit: limit)
    }
    func deleteAccount(id: String) async throws -> Bool {
        try check()
        return base.deleteAccount(id: id)
    }
    func unlinkProvider(_ providerID: String, accountID: String) async throws -> Bool {
        try check()
        return base.unlinkProvider(providerID, accountID: accountID)
    }
    func accountID(providerID: String, providerUID: String) async throws -> String? {
        try check()
        return base.accountID(providerID: providerID, providerUID: providerUID)
    }
    func providerIdentities(accountID: String) async throws -> [ProviderIdentity] {
        try check()
        return base.providerIdentities(accountID: accountID)
    }
    func recordAccountSignIn(id: String, at time: Int64, rehash: PasswordRehash?) async throws {
        try check()
        base.recordAccountSignIn(id: id, at: time, rehash: rehash)
    }
    func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool {
        try check()
        return base.setAccountDisabled(id: id, disabled: disabled)
    }
    func updateAccountProfile(id: String, displayName: String?, photoURL: String?) async throws -> Bool {
        try check()
        return base.updateAccountProfile(id: id, displayName: displayName, photoURL: photoURL)
    }
    func insertPendingEnrollment(_ record: PendingEnrollmentRecord) async throws {
        try check()
        base.insertPendingEnrollment(record)
    }
    func pendingEnrollment(id: String) async throws -> PendingEnrollmentRecord? {
        try check()
        return base.pendingEnrollment(id: id)
    }
    func removePendingEnrollment(id: String) async throws {
        try check()
        base.removePendingEnrollment(id: id)
    }
    func finalizeEnrollment(pendingID: String, factor: FactorRecord, maximumFactorCount: Int) async throws -> EnrollmentFinalization {
        try check()
        return base.finalizeEnrollment(pendingID: pendingID, factor: factor, maximumFactorCount: maximumFactorCount)
    }
    func factors(userID: String) async throws -> [FactorRecord] {
        try check()
        return base.factors(userID: userID)
    }
    func factor(id: String) async throws -> FactorRecord? {
        try check()
        return base.factor(id: id)
    }
    func removeFactor(id: String, userID: String) async throws -> FactorRecord? {
        try check()
        return base.removeFactor(id: id, userID: userID)
    }
    func renameFactor(id: String, userID: String, displayName: String?) async throws -> Bool {
        try check()
        return base.renameFactor(id: id, userID: userID, displayName: displayName)
    }
    func recordAcceptedStep(_ step: UInt64, factorID: String) async throws -> StepAcceptance {
        try check()
        return base.recordAcceptedStep(step, factorID: factorID)
    }
    func failureCounter(key: String) async throws -> FailureCounter {
        try check()
        return base.failureCounter(key: key)
    }
    func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) async throws -> FailureCounter {
        try check()
        return base.recordFailure(key: key, at: time, limit: limit, lockout: lockout)
    }
    func resetFailures(key: String) async throws {
        try check()
        base.resetFailures(key: key)
    }
    func isPendingSignInSpent(_ credential: PendingSignInRecord) async throws -> Bool {
        try check()
        return base.isPendingSignInSpent(credential)
    }
    func spendPendingSignIn(_ credential: PendingSignInRecord) async throws -> Bool {
        try check()
        return base.spendPendingSignIn(credential)
    }
    func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws -> Int {
        try check()
        return base.insertSession(record, maximumPerUser: maximumPerUser)
    }
    func extendSession(id: String, lastUsedAt: Int64, expiresAt: Int64) async throws -> Bool {
        try check()
        return base.extendSession(id: id, lastUsedAt: lastUsedAt, expiresAt: expiresAt)
    }
    func session(id: String) async throws -> SessionRecord? {
        try check()
        return base.session(id: id)
    }
    func removeSession(id: String) async throws {
        try check()
        base.removeSession(id: id)
    }
    func removeSessions(userID: String, except keptSessionID: String?) async throws -> Int {
        try check()
        return base.removeSessions(userID: userID, except: keptSessionID)
    }
    func removeSessions(userID: String, signedInWith enrollmentID: String) async throws -> Int {
        try check()
        return base.removeSessions(userID: userID, signedInWith: enrollmentID)
    }
    func replaceRecoveryCodes(userID: String, digests: [[UInt8]]) async throws {
        try check()
        base.replaceRecoveryCodes(userID: userID, digests: digests)
    }
    func recoveryCodeCount(userID: String) async throws -> Int {
        try check()
        return base.recoveryCodeCount(userID: userID)
    }
    func completeSignIn(
        credential: PendingSignInRecord, recoveryCodeDigests digests: [[UInt8]], failureKey: String, at time: Int64, session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion {
        try check()
        return base.completeSignIn(
            credential: credential, recoveryCodeDigests: digests, failureKey: failureKey, at: time, session: session,
            maximumSessionsPerUser: maximumSessionsPerUser)
    }
    func completeSignIn(
        credential: PendingSignInRecord, factorID: String, step: UInt64, at time: Int64, session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion {
        try check()
        return base.completeSignIn(
            credential: credential, factorID: factorID, step: step, at: time, session: session, maximumSessionsPerUser: maximumSessionsPerUser)
    }
    func recordSignInFailure(
        credential: PendingSignInRecord, failureKey: String, at time: Int64, limit: Int, lockout: Int64
    ) async throws -> SignInFailure {
        try check()
        return base.recordSignInFailure(credential: credential, failureKey: failureKey, at: time, limit: limit, lockout: lockout)
    }
    func consumeQuota(key: String, window: Int64, limit: Int, at time: Int64) async throws -> QuotaConsumption {
        try check()
        return base.consumeQuota(key: key, window: window, limit: limit, at: time)
    }
    func phoneFactors(userID: String) async throws -> [PhoneFactorRecord] {
        try check()
        return base.phoneFactors(userID: userID)
    }
    func phoneFactor(id: String) async throws -> PhoneFactorRecord? {
        try check()
        return base.phoneFactor(id: id)
    }
    func removePhoneFactor(id: String, userID: String) async throws -> PhoneFactorRecord? {
        try check()
        return base.removePhoneFactor(id: id, userID: userID)
    }
    func renamePhoneFactor(id: String, userID: String, displayName: String?) async throws -> Bool {
        try check()
        return base.renamePhoneFactor(id: id, userID: userID, displayName: displayName)
    }
    func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws {
        try check()
        base.insertPhoneVerification(record)
    }
    func phoneVerification(id: String) async throws -> PhoneVerificationRecord? {
        try check()
        return base.phoneVerification(id: id)
    }
    func removePhoneVerification(id: String) async throws {
        try check()
        base.removePhoneVerification(id: id)
    }
    func consumeFirstFactorVerification(_ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int) async throws
        -> PhoneVerificationConsumption
    {
        try check()
        return base.consumeFirstFactorVerification(verificationID, codeDigests: codeDigests, at: time, maximumAttempts: maximumAttempts)
    }
    func finalizePhoneEnrollment(
        verificationID: String, userID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int, factorID: String,
        displayName: String?, maximumFactorCount: Int
    ) async throws -> PhoneEnrollmentFinalization {
        try check()
        return base.finalizePhoneEnrollment(
            verificationID: verificationID, userID: userID, codeDigests: codeDigests, at: time, maximumAttempts: maximumAttempts,
            factorID: factorID, displayName: displayName, maximumFactorCount: maximumFactorCount)
    }
    func completeSignIn(
        credential: PendingSignInRecord, phoneVerificationID verificationID: String, codeDigests: [[UInt8]], maximumAttempts: Int,
        at time: Int64, session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion {
        try check()
        return base.completeSignIn(
            credential: credential, phoneVerificationID: verificationID, codeDigests: codeDigests, maximumAttempts: maximumAttempts,
            at: time, session: session, maximumSessionsPerUser: maximumSessionsPerUser)
    }
    func recordSignInSource(_ source: String, accountID: String, until: Int64) async throws {
        try check()
        base.recordSignInSource(source, accountID: accountID, until: until)
    }
    func isKnownSignInSource(_ source: String, accountID: String, at time: Int64) async throws -> Bool {
        try check()
        return base.isKnownSignInSource(source, accountID: accountID, at: time)
    }
    func purgeExpired(before time: Int64, failuresCountedBefore: Int64) async throws {
        try check()
        base.purgeExpired(before: time, failuresCountedBefore: failuresCountedBefore)
    }
    func importFactors(userID: String, totp: [FactorRecord], phone: [PhoneFactorRecord], maximumFactorCount: Int) async throws -> Bool {
        try check()
        return base.importFactors(userID: userID, totp: totp, phone: phone, maximumFactorCount: maximumFactorCount)
    }
    func insertEmailAction(_ action: EmailActionRecord) async throws {
        try check()
        base.insertEmailAction(action)
    }
    func emailAction(digests: [[UInt8]]) async throws -> EmailActionRecord? {
        try check()
        return base.emailAction(digests: digests)
    }
    func deleteEmailAction(digest: [UInt8]) async throws -> Bool {
        try check()
        return base.deleteEmailAction(digest: digest)
    }
    func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?, accountID: String?) async throws -> EmailActionCompletion {
        try check()
        return base.completeEmailAction(digest: digest, at: time, changes: changes, accountID: accountID)
    }
    func insertPasskeyChallenge(_ challenge: PasskeyChallengeRecord) async throws {
        try check()
        base.insertPasskeyChallenge(challenge)
    }
    func takePasskeyChallenge(digest: [UInt8]) async throws -> PasskeyChallengeRecord? {
        try check()
        return base.takePasskeyChallenge(digest: digest)
    }
    func passkeys(userID: String) async throws -> [PasskeyRecord] {
        try check()
        return base.passkeys(userID: userID)
    }
    func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord? {
        try check()
        return base.passkey(credentialID: credentialID)
    }
    func insertPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws -> PasskeyInsertion {
        try check()
        return base.insertPasskey(passkey, maximumPerUser: maximumPerUser)
    }
    func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws -> Bool {
        try check()
        return base.recordPasskeyUse(credentialID: credentialID, previousSignCount: previousSignCount, use: use)
    }
    func renamePasskey(credentialID: [UInt8], userID: String, name: String) async throws -> Bool {
        try check()
        return base.renamePasskey(credentialID: credentialID, userID: userID, name: name)
    }
    func removePasskey(credentialID: [UInt8], userID: String) async throws -> Bool {
        try check()
        return base.removePasskey(credentialID: credentialID, userID: userID)
    }
    func completeSignIn(
        credential: PendingSignInRecord, passkeyEnrollmentID enrollmentID: String, previousSignCount: UInt32, use: PasskeyUse, at time: Int64,
        session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion {
        try check()
        return base.completeSignIn(
            credential: credential, passkeyEnrollmentID: enrollmentID, previousSignCount: previousSignCount, use: use, at: time, session: session,
            maximumSessionsPerUser: maximumSessionsPerUser)
    }
    func sessions(userID: String) async throws -> [SessionRecord] {
        try check()
        return base.sessions(userID: userID)
    }
    func recordAuditEvent(_ event: AuditEvent) async throws -> AuditEvent {
        try check()
        return base.recordAuditEvent(event)
    }
    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent] {
        try check()
        return base.auditEvents(query)
    }
    func purgeAuditEvents(before time: Int64) async throws -> Int {
        try check()
        return base.purgeAuditEvents(before: time)
    }
}

@Suite("Store failures")
struct StoreFailureTests {
    @Test("a failing store surfaces as internalError naming the operation; a retry then works")
    func internalError() async throws {
        let store = FailingStore()
        let clock = ManualAuthClock(Fixture.start)
        let log = CapturedLog()
        let logger = log.logger
        let service = try MultiFactorService(store: store, clock: clock, logger: logger)

        store.fail("insertSession")
        let error = await #expect(throws: AuthError.self) { _ = try await service.signIn(Fixture.identity()) }
        #expect(error?.code == .internalError)
        #expect(
            error?.message == "the server could not complete this request (its enrollment store failed while storing the session): try again later")
        #expect(error?.description.contains("/var/lib") == false)
        #expect(error?.description.contains("INSERT") == false)
        #expect((error?.underlyingError as? FailingStore.Failure)?.operation == "insertSession", "the host still gets the store's error")
        #expect(
            log.lines == [
                "error enrollment store failed [error=\(FailingStore.Failure(operation: "insertSession")) operation=storing the session]"
            ], "the log has the detail")
        store.fail(nil)
        let user = try await service.signIn(Fixture.identity())

        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let code = try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey())).code(at: clock.now())
        store.fail("finalizeEnrollment")
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
            } == .internalError)
        #expect(store.base.factors(userID: "alice").isEmpty, "nothing enrolled when the store failed")
        store.fail(nil)
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)

        clock.advance(by: 30)
        let signIn = await #expect(throws: AuthError.self) { _ = try await service.signIn(Fixture.identity()) }
        let resolver = try #require(signIn?.resolver)
        let uid = user.multiFactor.enrolledFactors[0].uid
        let next = try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey())).code(at: clock.now())
        store.fail("completeSignIn")
        #expect(
            await authErrorCode {
                _ = try await resolver.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: uid, oneTimePassword: next))
            } == .internalError)
        store.fail(nil)
        _ = try await resolver.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: uid, oneTimePassword: next))

        store.fail("purgeExpired")
        #expect(await authErrorCode { try await service.purgeExpired() } == .internalError)
        store.fail(nil)
        try await service.purgeExpired()
    }
}
