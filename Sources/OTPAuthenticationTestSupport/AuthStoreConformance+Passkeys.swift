import OTPAuthentication

// Passkeys: credentials unique across users, a per-user limit, the sign counter a compare-and-set,
// challenges taken once; both deleted with their account, challenges purged when expired.
extension AuthStoreConformance {
    static let passkeyCases: [AuthStoreConformanceCase] = [
        .init(
            "passkeys round-trip every field, are listed per user oldest first, unique by credential id and limited per user",
            passkeys),
        .init("a passkey's sign counter is a compare-and-set; renaming and removing are scoped to its user", passkeyUse),
        .init("concurrent uses of one passkey at one count: exactly one is recorded", concurrentPasskeyUse),
        .init("concurrent registrations of one credential id by different users: exactly one is stored", concurrentPasskeyInsert),
        .init("a passkey challenge is taken once, expired or not, purged after its time and deleted with its account", passkeyChallenges),
        .init("concurrent takes of one passkey challenge: exactly one gets it", concurrentPasskeyChallenge),
        .init(
            "passkey second factors share the factor limit, start sign-ins, are removed with their failures, and leave sign-in passkeys apart",
            passkeyFactors),
        .init("a passkey factor completes its own sign-in once, at its count, with the session; refusals change nothing", passkeyFactorSignIn),
        .init("concurrent completions with one passkey factor at one count: exactly one wins", concurrentPasskeyFactorSignIn),
    ]

    static func passkeyRecord(_ userID: String, id: [UInt8] = randomBytes(), at time: Int64 = 100) -> PasskeyRecord {
        PasskeyRecord(
            credentialID: id, userID: userID, userHandle: randomBytes(), name: "Phone \(time)", publicKey: [0xA5, 1, 2, 3, 0x26], signCount: 7,
            isUserVerified: false, isBackupEligible: true, isBackedUp: false, aaguid: Array(repeating: 0xAA, count: 16), createdAt: time)
    }

    static func randomBytes(_ count: Int = 32) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255) }
    }

    static func newAccount(_ store: any AuthStore) async throws -> String {
        let id = uniqueID("account")
        _ = try await store.insertAccount(AccountRecord(id: id, email: nil, createdAt: 1))
        return id
    }

    static func passkeys(_ store: any AuthStore) async throws {
        let ada = try await newAccount(store)
        let bob = try await newAccount(store)
        let first = passkeyRecord(ada, at: 200)
        var second = passkeyRecord(ada, id: randomBytes(1_023), at: 100)
        second.lastUsedAt = 150
        second.userHandle = first.userHandle
        try checkEqual(try await store.insertPasskey(first, maximumPerUser: 2), .inserted, "Ada's first passkey")
        try checkEqual(try await store.insertPasskey(second, maximumPerUser: 2), .inserted, "Ada's second, with the longest id")
        try checkEqual(try await store.passkey(credentialID: second.credentialID), second, "a passkey round-trips every field")
        try checkEqual(try await store.passkeys(userID: ada), [second, first], "a user's passkeys, oldest first")
        try checkEqual(try await store.passkeys(userID: bob), [], "another user's")
        try checkEqual(try await store.insertPasskey(passkeyRecord(ada), maximumPerUser: 2), .limitReached, "past the limit")
        var taken = passkeyRecord(bob)
        taken.credentialID = first.credentialID
        try checkEqual(try await store.insertPasskey(taken, maximumPerUser: 2), .credentialInUse, "another user's credential id")
        try checkEqual(try await store.insertPasskey(first, maximumPerUser: 5), .credentialInUse, "the same passkey again")
        try checkEqual(
            try await store.insertPasskey(passkeyRecord(uniqueID("nobody")), maximumPerUser: 2), .accountNotFound, "a user without an account")
        try checkEqual(try await store.passkeys(userID: bob), [], "refusals store nothing")
        try checkEqual(try await store.passkey(credentialID: first.credentialID), first, "a refused duplicate leaves the first")

        try checkEqual(try await store.deleteAccount(id: ada), true, "deleting Ada")
        try checkEqual(try await store.passkeys(userID: ada), [], "her passkeys go with her account")
        try checkEqual(try await store.passkey(credentialID: first.credentialID), nil, "and are not found by id")
        try checkEqual(
            try await store.insertPasskey(passkeyRecord(bob, id: first.credentialID), maximumPerUser: 2), .inserted, "the id is free again")
    }

    static func passkeyUse(_ store: any AuthStore) async throws {
        let ada = try await newAccount(store)
        let bob = try await newAccount(store)
        let passkey = passkeyRecord(ada)
        _ = try await store.insertPasskey(passkey, maximumPerUser: 10)
        let use = PasskeyUse(signCount: 9, isUserVerified: true, isBackedUp: true, at: 300)
        try checkEqual(try await store.recordPasskeyUse(credentialID: passkey.credentialID, previousSignCount: 6, use: use), false, "a stale count")
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID), passkey, "a refused use changes nothing")
        try checkEqual(try await store.recordPasskeyUse(credentialID: passkey.credentialID, previousSignCount: 7, use: use), true, "the stored count")
        var used = passkey
        used.signCount = 9
        used.isUserVerified = true
        used.isBackedUp = true
        used.lastUsedAt = 300
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID), used, "a use records count, flags and time")
        let unverified = PasskeyUse(signCount: 10, isUserVerified: false, isBackedUp: false, at: 400)
        try checkEqual(try await store.recordPasskeyUse(credentialID: passkey.credentialID, previousSignCount: 9, use: unverified), true, "again")
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID)?.isUserVerified, true, "user verification, once seen, stays")
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID)?.isBackedUp, false, "the backup state follows the last use")
        try checkEqual(
            try await store.recordPasskeyUse(credentialID: randomBytes(), previousSignCount: 0, use: use), false, "an unknown credential")

        try checkEqual(try await store.renamePasskey(credentialID: passkey.credentialID, userID: bob, name: "Bob's"), false, "renaming another's")
        try checkEqual(try await store.renamePasskey(credentialID: passkey.credentialID, userID: ada, name: "Laptop"), true, "renaming her own")
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID)?.name, "Laptop", "the new name")
        try checkEqual(try await store.removePasskey(credentialID: passkey.credentialID, userID: bob), false, "removing another's")
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID)?.name, "Laptop", "refusals change nothing")
        try checkEqual(try await store.removePasskey(credentialID: passkey.credentialID, userID: ada), true, "removing her own")
        try checkEqual(try await store.removePasskey(credentialID: passkey.credentialID, userID: ada), false, "once")
        try checkEqual(try await store.passkeys(userID: ada), [], "gone")
    }

    static func concurrentPasskeyUse(_ store: any AuthStore) async throws {
        let ada = try await newAccount(store)
        let passkey = passkeyRecord(ada)
        _ = try await store.insertPasskey(passkey, maximumPerUser: 10)
        let recorded = try await withThrowingTaskGroup(of: Bool.self) { group in
            for count in UInt32(8)..<24 {
                group.addTask {
                    try await store.recordPasskeyUse(
                        credentialID: passkey.credentialID, previousSignCount: 7,
                        use: PasskeyUse(signCount: count, isUserVerified: false, isBackedUp: false, at: 200))
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(recorded, 1, "uses recorded from one count")
        let count = try await store.passkey(credentialID: passkey.credentialID)?.signCount ?? 0
        try check((8..<24).contains(count), "the stored count is the one recorded use's (\(count))")
    }

    static func concurrentPasskeyInsert(_ store: any AuthStore) async throws {
        let id = randomBytes()
        var users: [String] = []
        for _ in 0..<8 { users.append(try await newAccount(store)) }
        let outcomes = try await withThrowingTaskGroup(of: PasskeyInsertion.self) { group in
            for user in users { group.addTask { try await store.insertPasskey(passkeyRecord(user, id: id), maximumPerUser: 10) } }
            return try await group.reduce(into: [PasskeyInsertion]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .inserted }.count, 1, "registrations stored")
        try checkEqual(outcomes.filter { $0 == .credentialInUse }.count, 7, "the others find it in use")
        let owner = try await store.passkey(credentialID: id)?.userID ?? ""
        var owners = 0
        for user in users { owners += try await store.passkeys(userID: user).count }
        try checkEqual(owners, 1, "one user lists it")
        try check(users.contains(owner), "its owner is one of them")
    }

    static func passkeyFactor(_ userID: String, at time: Int64 = 100) -> PasskeyRecord {
        var passkey = passkeyRecord(userID, at: time)
        passkey.enrollmentID = uniqueID("webauthn")
        return passkey
    }

    static func passkeyFactors(_ store: any AuthStore) async throws {
        let totp = try await enrolledFactor(in: store, step: nil)
        let user = totp.userID
        let first = passkeyFactor(user, at: 300)
        let second = passkeyFactor(user, at: 301)
        try checkEqual(try await store.insertPasskey(first, maximumPerUser: 3), .inserted, "a passkey factor beside a TOTP factor")
        try checkEqual(try await store.insertPasskey(second, maximumPerUser: 3), .inserted, "a second, the limit reached with the TOTP factor")
        try checkEqual(try await store.insertPasskey(passkeyFactor(user), maximumPerUser: 3), .limitReached, "a passkey factor beyond the limit")
        let pending = try pending(user: user)
        try await store.insertPendingEnrollment(pending)
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: pending.id, factor: factor(from: pending, at: 5, step: nil), maximumFactorCount: 3),
            .factorLimitReached, "a TOTP factor beyond a limit reached with passkey factors")
        try checkEqual(
            try await store.insertPasskey(passkeyRecord(user), maximumPerUser: 1), .accountNotFound,
            "a passkey that signs in alone still needs an account, which this factor's user has not")
        try checkEqual(
            try await store.signInFactors(userID: user), SignInFactors(totp: [totp], phone: [], passkeys: [first, second]),
            "every kind of factor starting a sign-in")
        try checkEqual(try await store.passkeys(userID: user), [first, second], "listed with the user's passkeys")

        let ada = try await newAccount(store)
        let alone = passkeyRecord(ada)
        _ = try await store.insertPasskey(alone, maximumPerUser: 1)
        try checkEqual(
            try await store.insertPasskey(passkeyFactor(ada), maximumPerUser: 5), .inserted,
            "a factor beside the one passkey allowed to sign in alone")
        try checkEqual(try await store.insertPasskey(passkeyRecord(ada), maximumPerUser: 1), .limitReached, "sign-in passkeys count apart")
        try checkEqual(try await store.signInFactors(userID: ada).passkeys.count, 1, "a sign-in passkey is no second factor")

        _ = try await store.recordFailure(key: first.enrollmentID!, at: 100, limit: 5, lockout: 60)
        try checkEqual(try await store.removePasskey(credentialID: first.credentialID, userID: user), true, "removing a passkey factor")
        try checkEqual(try await store.failureCounter(key: first.enrollmentID!), .zero, "its failures go with it")
        try checkEqual(try await store.signInFactors(userID: user).passkeys, [second], "the factors after a removal")
        try checkEqual(try await store.deleteAccount(id: ada), true, "deleting Ada")
        try checkEqual(try await store.passkeys(userID: ada), [], "her factor goes with her passkey")
    }

    static func passkeyFactorSignIn(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let passkey = passkeyFactor(user)
        _ = try await store.insertPasskey(passkey, maximumPerUser: 5)
        let enrollmentID = passkey.enrollmentID!
        let use = PasskeyUse(signCount: 8, isUserVerified: true, isBackedUp: true, at: 200)
        func session() -> SessionRecord {
            SessionRecord(
                id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 200, secondFactorEnrollmentID: enrollmentID,
                lastUsedAt: 200, expiresAt: 5_000)
        }
        func complete(_ credential: PendingSignInRecord, id: String = enrollmentID, count: UInt32 = 7, at time: Int64 = 200, _ session: SessionRecord)
            async throws -> SignInCompletion
        {
            try await store.completeSignIn(
                credential: credential, passkeyEnrollmentID: id, previousSignCount: count, use: use, at: time, session: session,
                maximumSessionsPerUser: 10)
        }
        let credential = pendingSignIn(of: user)
        let refused = session()
        try checkEqual(try await complete(credential, count: 6, refused), .codeRejected, "a count that moved")
        try checkEqual(try await complete(credential, id: uniqueID("webauthn"), refused), .factorNotFound, "another enrollment id")
        try checkEqual(try await complete(pendingSignIn(of: uniqueID("user")), refused), .factorNotFound, "another user's credential")
        try checkEqual(try await complete(credential, at: 401, refused), .credentialExpired(expiresAt: 400), "an expired credential")
        let locked = try await store.recordFailure(key: enrollmentID, at: 150, limit: 1, lockout: 600)
        try checkEqual(try await complete(credential, refused), .locked(until: locked.lockedUntil!), "a locked factor")
        try checkEqual(try await store.session(id: refused.id), nil, "refusals store no session")
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID), passkey, "refusals record no use")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "refusals spend nothing")

        try checkEqual(try await complete(credential, at: 800, refused), .credentialExpired(expiresAt: 400), "still expired")
        let fresh = PendingSignInRecord(id: uniqueID("credential"), userID: user, firstFactorProvider: "password", createdAt: 700, expiresAt: 1_000)
        let accepted = session()
        try checkEqual(try await complete(fresh, at: 800, accepted), .completed, "after the lock, at the stored count")
        try checkEqual(try await store.session(id: accepted.id), accepted, "the session stored")
        try checkEqual(try await store.isPendingSignInSpent(fresh), true, "the credential spent")
        try checkEqual(try await store.failureCounter(key: enrollmentID), .zero, "the failures reset")
        var used = passkey
        _ = used.record(use, previousSignCount: 7)
        try checkEqual(try await store.passkey(credentialID: passkey.credentialID), used, "the use recorded")
        try checkEqual(try await complete(fresh, at: 800, session()), .credentialNotFound, "the credential again")
    }

    static func concurrentPasskeyFactorSignIn(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let passkey = passkeyFactor(user)
        _ = try await store.insertPasskey(passkey, maximumPerUser: 5)
        let outcomes = try await withThrowingTaskGroup(of: SignInCompletion.self) { group in
            for count in UInt32(8)..<16 {
                group.addTask {
                    try await store.completeSignIn(
                        credential: pendingSignIn(of: user), passkeyEnrollmentID: passkey.enrollmentID!, previousSignCount: 7,
                        use: PasskeyUse(signCount: count, isUserVerified: false, isBackedUp: false, at: 200),
                        at: 200,
                        session: SessionRecord(
                            id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 200,
                            secondFactorEnrollmentID: passkey.enrollmentID, lastUsedAt: 200, expiresAt: 5_000),
                        maximumSessionsPerUser: 100)
                }
            }
            return try await group.reduce(into: [SignInCompletion]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .completed }.count, 1, "completions at one count")
        try checkEqual(outcomes.filter { $0 == .codeRejected }.count, 7, "the others find the count moved")
    }

    static func passkeyChallenges(_ store: any AuthStore) async throws {
        let ada = try await newAccount(store)
        let registration = PasskeyChallengeRecord(
            digest: randomBytes(), ceremony: .registration, userID: ada, userHandle: randomBytes(64), expiresAt: 1_000)
        let signIn = PasskeyChallengeRecord(digest: randomBytes(), ceremony: .signIn, userID: nil, userHandle: nil, expiresAt: 1_000)
        let old = PasskeyChallengeRecord(digest: randomBytes(), ceremony: .signIn, userID: nil, userHandle: nil, expiresAt: 499)
        let kept = PasskeyChallengeRecord(digest: randomBytes(), ceremony: .signIn, userID: nil, userHandle: nil, expiresAt: 500)
        for challenge in [registration, signIn, old, kept] { try await store.insertPasskeyChallenge(challenge) }
        try checkEqual(try await store.takePasskeyChallenge(digest: signIn.digest), signIn, "a challenge round-trips every field")
        try checkEqual(try await store.takePasskeyChallenge(digest: signIn.digest), nil, "and is taken once")
        try checkEqual(try await store.takePasskeyChallenge(digest: randomBytes()), nil, "an unknown challenge")

        try await store.purgeExpired(before: 500, failuresCountedBefore: 0)
        try checkEqual(try await store.takePasskeyChallenge(digest: old.digest), nil, "an expired challenge is purged")
        try checkEqual(try await store.takePasskeyChallenge(digest: kept.digest), kept, "one in its last second is kept")

        try checkEqual(try await store.deleteAccount(id: ada), true, "deleting Ada")
        try checkEqual(try await store.takePasskeyChallenge(digest: registration.digest), nil, "her registration's challenge goes with her")
    }

    static func concurrentPasskeyChallenge(_ store: any AuthStore) async throws {
        let challenge = PasskeyChallengeRecord(digest: randomBytes(), ceremony: .signIn, userID: nil, userHandle: nil, expiresAt: 1_000)
        try await store.insertPasskeyChallenge(challenge)
        let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 { group.addTask { try await store.takePasskeyChallenge(digest: challenge.digest) != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(taken, 1, "takes that got the challenge")
    }
}
