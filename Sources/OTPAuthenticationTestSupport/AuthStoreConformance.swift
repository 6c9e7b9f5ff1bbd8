public import OTPAuthentication
import OTPCore

/// The behaviour every `AuthStore` must show, as a list of checks that any
/// test framework can run against any store.
///
/// With Swift Testing, run each case on a fresh store:
/// ```swift
/// @Test(arguments: AuthStoreConformance.cases)
/// func conforms(_ check: AuthStoreConformanceCase) async throws {
///     try await check.run(on: makeStore())
/// }
/// ```
/// Cases use their own random ids, so they also pass on a store shared between cases.
public enum AuthStoreConformance {
    /// Every check.
    public static let cases: [AuthStoreConformanceCase] =
        [
            .init("pending enrollments round-trip, secrets included", pendingEnrollmentRoundTrip),
            .init("finalizing moves a pending enrollment to an enrolled factor once", finalizeMovesPendingToFactor),
            .init("finalizing respects the factor limit and changes nothing when refused", finalizeRespectsLimit),
            .init("concurrent finalizations of one pending enrollment: exactly one wins", finalizeConcurrently),
            .init("factors are listed per user, oldest first", factorsOrderedAndScoped),
            .init("factors round-trip every field", factorRoundTrip),
            .init("removing a factor is scoped to its user and clears its failures", removeFactorScoped),
            .init("renaming a TOTP or phone factor is scoped to its user and kind, writing its event only when it renames", renameFactorScoped),
            .init("accepted steps are a compare-and-set: only a strictly higher step wins", acceptedStepCompareAndSet),
            .init("concurrent acceptance of one step: exactly one wins", concurrentSameStep),
            .init("concurrent acceptance of many steps keeps the highest", concurrentDifferentSteps),
            .init("failures count up, lock at the limit and unlock after the lockout", failureCounting),
            .init("concurrent failures are all counted", concurrentFailures),
            .init("failure counters are independent per key and reset to zero", failureKeysIndependent),
            .init("a pending sign-in is spent once", pendingSignInSpentOnce),
            .init("concurrent spending of a pending sign-in: exactly one spends it", concurrentSpend),
            .init("sessions are stored, listed per user, extended, ended one by one, per user and per second factor", sessions),
            .init("sessions beyond the per-user limit end oldest first, whichever operation stores them", sessionLimit),
            .init("starting a sign-in lists the user's factors", signInFactors),
            .init("a pending sign-in reads back with its factor's failure counter", pendingSignInWithFailures),
            .init("a pending sign-in reads back with its user's account, identities and factors", pendingSignInContext),
            .init("concurrent second steps of many sign-ins each read their own context", signInContextCrowd),
            .init("completing a sign-in records the step, spends the credential once, stores the session and resets failures", completeSignIn),
            .init("a refused completion changes nothing", completeSignInRefusals),
            .init("concurrent completions of one sign-in: exactly one stores its session", concurrentCompleteSignIn),
            .init("concurrent completions with one step on several sign-ins: exactly one wins", concurrentCompleteSameStep),
            .init("concurrent sign-ins of one user past the session cap keep the newest sessions, as one after the other", signInsPastSessionCap),
            .init(
                "a crowd of concurrent sign-ins, fresh, replayed, reused, expired, locked, at the session cap or without factors: each as alone",
                signInCrowd),
            .init(
                "a wrong code of a pending sign-in counts once, locks at the limit, and counts nothing for a credential gone, expired or locked",
                recordSignInFailure),
            .init(
                "a crowd of concurrent wrong codes, on one factor past its limit and on many: each as alone", signInFailureCrowd),
            .init("recovery codes are replaced as a set, counted, and each completes one sign-in of its own user", recoveryCodes),
            .init("a refused recovery-code completion spends nothing", recoveryCodeRefusals),
            .init("concurrent completions with one recovery code: exactly one wins", concurrentRecoveryCode),
            .init("phone enrollment: a verification's code enrolls its number once; refusals change nothing", phoneEnrollment),
            .init("phone enrollment counts wrong codes and ends the verification at the cap or its expiry", phoneEnrollmentAttempts),
            .init("phone sign-in: the code completes its own sign-in once, with the session, and counts wrong codes", phoneSignIn),
            .init("concurrent completions of one phone verification: exactly one wins", concurrentPhoneSignIn),
            .init("a first-factor verification's code is spent once; wrong codes count, and the cap or expiry ends it", firstFactorVerification),
            .init("concurrent uses of one first-factor code: exactly one consumes it", concurrentFirstFactorVerification),
            .init("phone and TOTP factors share the factor limit; listing, reading and removing phone factors", phoneFactorsAndLimit),
            .init("quotas are token buckets per key: a burst up to the limit, then one use per share of the window", quotas),
            .init("concurrent uses of one quota: exactly as many as fit are allowed", concurrentQuota),
            .init("purging removes only what expired", purgeExpired),
            .init(
                "email actions: a code is used once with its change, refused when expired, kept when its change cannot be made, purged and deleted with its account",
                emailActions),
            .init("concurrent uses of one email action: exactly one makes its change", concurrentEmailAction),
            .init("an import's factors are stored whole, secrets included, or not at all past the factor limit", importedFactors),
            .init("failure counters are forgotten by the age of their last failure, whichever operation counted it", failuresForgottenByAge),
            .init("sign-in sources are known per account until their time, extended, purged and deleted with the account", signInSources),
            .init("accounts round-trip, are found by id and by email, and record sign-ins and re-hashes", accountRoundTrip),
            .init("an account's id and email are unique; a refused insertion changes nothing", accountUniqueness),
            .init("concurrent insertions of accounts with one email: exactly one is stored", concurrentAccountEmail),
            .init("writes whose tasks are cancelled midway are stored or fail, as they answer, and the store goes on", cancelledWrites),
            .init("provider identities link once per provider and once per identity, are found and unlinked", providerIdentities),
            .init("concurrent links of one identity to different accounts: exactly one wins", concurrentProviderLink),
            .init("an account inserted with an identity owns it; a refused insertion stores neither", insertWithIdentity),
            .init("linking an identity with an email address sets the account's; a refused link changes nothing", linkWithEmail),
            .init("linking a password sets the hash and the address once; refusals change nothing", linkPassword),
            .init("unlinking the password clears the hash, the address and its verification", unlinkPassword),
            .init("accounts are disabled and enabled, and their profile set and cleared", accountDisabledAndProfile),
            .init("concurrent insertions of accounts with one identity: exactly one is stored", concurrentInsertWithIdentity),
            .init("concurrent password links with one address to different accounts: exactly one wins", concurrentPasswordLink),
            .init("concurrent identity links with one address to different accounts: exactly one wins", concurrentLinkWithEmail),
            .init("deleting an account deletes its identities, factors, sessions and codes, and nobody else's", deleteAccount),
            .init("an update changes an account's fields and phone identity in one step; refusals change nothing", accountUpdate),
            .init("custom claims are stored with an account, set, kept by other changes and removed", customAttributes),
            .init(
                "an update unlinks the password with its address and identities by provider, freeing them; a refusal unlinks nothing",
                accountUpdateUnlinks),
            .init("an update removes a password hash and keeps the address, which stays the account's", passwordHashRemoved),
            .init("accounts are listed page by page in the order of their ids' bytes, each once", accountListing),
        ] + passkeyCases + auditCases

    static func providerIdentities(_ store: any AuthStore) async throws {
        let ada = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1)
        let bob = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 2)
        _ = try await store.insertAccount(ada)
        _ = try await store.insertAccount(bob)
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"), email: "ada@gmail.com", displayName: "Ada")
        let github = ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub"))
        try checkEqual(try await store.linkProviderIdentity(google, accountID: ada.id), .linked, "linking Google to Ada")
        try checkEqual(try await store.linkProviderIdentity(github, accountID: ada.id), .linked, "linking GitHub to Ada")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [github, google], "Ada's identities, by provider id")
        try checkEqual(
            try await store.accountID(providerID: "google.com", providerUID: google.providerUID), ada.id, "the owner of the Google identity")
        try checkEqual(
            try await store.linkProviderIdentity(google, accountID: bob.id), .identityInUse(accountID: ada.id), "linking Ada's Google identity to Bob"
        )
        try checkEqual(
            try await store.linkProviderIdentity(google, accountID: ada.id), .identityInUse(accountID: ada.id), "linking it to Ada again")
        let otherGoogle = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        try checkEqual(
            try await store.linkProviderIdentity(otherGoogle, accountID: ada.id), .providerAlreadyLinked, "a second Google identity for Ada")
        try checkEqual(
            try await store.linkProviderIdentity(otherGoogle, accountID: uniqueID("account")), .accountNotFound, "an identity for no account")
        try checkEqual(try await store.providerIdentities(accountID: bob.id), [], "Bob's identities after the refusals")

        try checkEqual(try await store.unlinkProvider("google.com", accountID: ada.id), true, "unlinking Google from Ada")
        try checkEqual(try await store.unlinkProvider("google.com", accountID: ada.id), false, "unlinking it again")
        try checkEqual(try await store.accountID(providerID: "google.com", providerUID: google.providerUID), nil, "the unlinked identity's owner")
        try checkEqual(try await store.linkProviderIdentity(google, accountID: bob.id), .linked, "the unlinked identity linked to Bob")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [github], "Ada's identities at the end")
    }

    static func concurrentProviderLink(_ store: any AuthStore) async throws {
        let identity = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        var accounts: [String] = []
        for index in 0..<20 {
            let account = AccountRecord(id: uniqueID("account-\(index)"), email: nil, createdAt: Int64(index))
            _ = try await store.insertAccount(account)
            accounts.append(account.id)
        }
        let outcomes = try await withThrowingTaskGroup(of: ProviderLink.self) { group in
            for account in accounts {
                group.addTask { try await store.linkProviderIdentity(identity, accountID: account) }
            }
            return try await group.reduce(into: [ProviderLink]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .linked }.count, 1, "links that won among 20 concurrent ones")
        let owner = try await store.accountID(providerID: "google.com", providerUID: identity.providerUID)
        try check(owner.map(accounts.contains) == true, "the identity has one of the accounts as owner")
        try checkEqual(outcomes.filter { $0 == .identityInUse(accountID: owner!) }.count, 19, "links refused naming the winner")
    }

    // MARK: Accounts

    static func accountRoundTrip(_ store: any AuthStore) async throws {
        let record = AccountRecord(
            id: uniqueID("account"), email: "\(uniqueID("someone"))@example.com", isEmailVerified: true, displayName: "Ada Lovelace",
            photoURL: "https://example.com/ada.png", isDisabled: true, createdAt: 100, lastSignInAt: 150,
            passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaA")
        try checkEqual(try await store.insertAccount(record), .inserted, "inserting a new account")
        try checkEqual(try await store.account(id: record.id), record, "the account by id")
        try checkEqual(try await store.account(email: record.email!), record, "the account by email")
        try checkEqual(try await store.account(email: "nobody-\(uniqueID("x"))@example.com"), nil, "an unknown email")
        try checkEqual(try await store.account(id: uniqueID("account")), nil, "an unknown id")

        let bare = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 5)
        try checkEqual(try await store.insertAccount(bare), .inserted, "an account without email")
        try checkEqual(try await store.account(id: bare.id), bare, "the account without email")
        let another = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 6)
        try checkEqual(try await store.insertAccount(another), .inserted, "a second account without email (no email, no conflict)")

        try await store.recordAccountSignIn(id: record.id, at: 200, rehash: nil)
        var expected = record
        expected.lastSignInAt = 200
        try checkEqual(try await store.account(id: record.id), expected, "after a sign-in without a re-hash")
        let rehashed = "$scrypt$ln=11,r=8,p=1$bmV3c2FsdA$bmV3aGFzaA"
        try await store.recordAccountSignIn(
            id: record.id, at: 300, rehash: PasswordRehash(verified: record.passwordHash ?? "", replacement: rehashed))
        expected.lastSignInAt = 300
        expected.passwordHash = rehashed
        try checkEqual(try await store.account(id: record.id), expected, "after a sign-in with a re-hash")
        // A re-hash of a hash that is no longer the account's (a password changed meanwhile, or a
        // concurrent sign-in's re-hash stored first) records the sign-in and changes no password.
        try await store.recordAccountSignIn(
            id: record.id, at: 400, rehash: PasswordRehash(verified: record.passwordHash ?? "", replacement: "$scrypt$stale"))
        expected.lastSignInAt = 400
        try checkEqual(try await store.account(id: record.id), expected, "after a re-hash of a hash the account no longer has")
        try await store.recordAccountSignIn(id: uniqueID("account"), at: 300, rehash: nil)
    }

    static func accountUniqueness(_ store: any AuthStore) async throws {
        let email = "\(uniqueID("shared"))@example.com"
        let first = AccountRecord(id: uniqueID("account"), email: email, createdAt: 1)
        try checkEqual(try await store.insertAccount(first), .inserted, "the first account")
        let sameEmail = AccountRecord(id: uniqueID("account"), email: email, createdAt: 2)
        try checkEqual(try await store.insertAccount(sameEmail), .emailAlreadyInUse, "a second account with the email")
        try checkEqual(try await store.account(id: sameEmail.id), nil, "the refused account")
        let sameID = AccountRecord(id: first.id, email: "\(uniqueID("other"))@example.com", createdAt: 3)
        try checkEqual(try await store.insertAccount(sameID), .idAlreadyInUse, "a second account with the id")
        try checkEqual(try await store.account(email: sameID.email!), nil, "the refused account's email")
        try checkEqual(try await store.account(id: first.id), first, "the first account, unchanged")
    }

    static func concurrentAccountEmail(_ store: any AuthStore) async throws {
        let email = "\(uniqueID("race"))@example.com"
        let outcomes = try await withThrowingTaskGroup(of: AccountInsertion.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await store.insertAccount(AccountRecord(id: uniqueID("account-\(index)"), email: email, createdAt: Int64(index)))
                }
            }
            return try await group.reduce(into: [AccountInsertion]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .inserted }.count, 1, "insertions that stored the account among 50 concurrent ones")
        try checkEqual(outcomes.filter { $0 == .emailAlreadyInUse }.count, 49, "insertions refused for the email")
    }

    static func cancelledWrites(_ store: any AuthStore) async throws {
        for round in 0..<30 {
            // The cancel lands anywhere in a write (before it, between its statements, after it):
            // whatever it interrupts, the write's answer and the store agree, and writes go on.
            let ids = (0..<8).map { uniqueID("cancelled-\(round)-\($0)") }
            let tasks = ids.map { id in
                Task { try await store.insertAccount(AccountRecord(id: id, email: "\(id)@example.com", createdAt: Int64(round))) }
            }
            for _ in 0..<round % 6 { await Task.yield() }
            for task in tasks { task.cancel() }
            for (id, task) in zip(ids, tasks) {
                let inserted = (try? await task.value) == .inserted
                try checkEqual(try await store.account(id: id) != nil, inserted, "account \(id) in the store, its insertion having answered so")
            }
            let key = uniqueID("after-\(round)")
            try checkEqual(
                try await store.recordFailure(key: key, at: 1_800_000_000, limit: 5, lockout: 300).consecutiveFailures, 1,
                "a write after round \(round) of cancelled ones")
        }
    }

    // MARK: Pending enrollments

    static func pendingEnrollmentRoundTrip(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        for (algorithm, byteCount) in [(OTPAlgorithm.sha1, 20), (.sha1, 10), (.sha256, 32), (.sha512, 64)] {
            let record = try pending(user: user, algorithm: algorithm, byteCount: byteCount, digits: 8, period: 60)
            try await store.insertPendingEnrollment(record)
            try check(
                try await store.pendingEnrollment(id: record.id) == record,
                "read back a pending \(algorithm) enrollment with a \(byteCount)-byte secret unchanged")
        }
        try check(try await store.pendingEnrollment(id: uniqueID("missing")) == nil, "an unknown pending enrollment is nil")
        let record = try pending(user: user)
        try await store.insertPendingEnrollment(record)
        try await store.removePendingEnrollment(id: record.id)
        try check(try await store.pendingEnrollment(id: record.id) == nil, "a removed pending enrollment is gone")
        try await store.removePendingEnrollment(id: record.id)
    }

    static func finalizeMovesPendingToFactor(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let record = try pending(user: user)
        try await store.insertPendingEnrollment(record)
        let enrolled = factor(from: record, at: 1_000, step: 33)
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: record.id, factor: enrolled, maximumFactorCount: 5), .enrolled, "first finalization")
        try check(try await store.pendingEnrollment(id: record.id) == nil, "the pending enrollment is gone after finalization")
        try check(try await store.factor(id: enrolled.id) == enrolled, "the enrolled factor reads back unchanged")
        try checkEqual(try await store.factors(userID: user).map(\.id), [enrolled.id], "the user's factors")
        let again = factor(from: record, at: 1_001, step: 34)
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: record.id, factor: again, maximumFactorCount: 5), .pendingEnrollmentNotFound,
            "second finalization")
        try check(try await store.factor(id: again.id) == nil, "a refused finalization inserts nothing")
        try checkEqual(try await store.factors(userID: user).count, 1, "factor count after a refused finalization")
    }

    static func finalizeRespectsLimit(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        for index in 0..<2 {
            let record = try pending(user: user)
            try await store.insertPendingEnrollment(record)
            let outcome = try await store.finalizeEnrollment(
                pendingID: record.id, factor: factor(from: record, at: Int64(index), step: nil), maximumFactorCount: 2)
            try checkEqual(outcome, .enrolled, "finalization \(index + 1) of 2")
        }
        let third = try pending(user: user)
        try await store.insertPendingEnrollment(third)
        let refused = factor(from: third, at: 5, step: nil)
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: third.id, factor: refused, maximumFactorCount: 2), .factorLimitReached,
            "finalization beyond the limit")
        try check(try await store.pendingEnrollment(id: third.id) == third, "a refused finalization keeps the pending enrollment")
        try check(try await store.factor(id: refused.id) == nil, "a refused finalization inserts nothing")
        try checkEqual(try await store.factors(userID: user).count, 2, "factor count at the limit")
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: third.id, factor: refused, maximumFactorCount: 3), .enrolled,
            "finalization with a higher limit")
    }

    static func finalizeConcurrently(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let record = try pending(user: user)
        try await store.insertPendingEnrollment(record)
        let outcomes = try await withThrowingTaskGroup(of: EnrollmentFinalization.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await store.finalizeEnrollment(
                        pendingID: record.id, factor: factor(from: record, at: Int64(index), step: nil), maximumFactorCount: 5)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .enrolled }.count, 1, "finalizations that won")
        try checkEqual(outcomes.filter { $0 == .pendingEnrollmentNotFound }.count, 49, "finalizations that found nothing")
        try checkEqual(try await store.factors(userID: user).count, 1, "factors after concurrent finalizations")
    }

    // MARK: Factors

    static func factorsOrderedAndScoped(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let other = uniqueID("user")
        var expected: [String] = []
        for (index, time) in [Int64(300), 100, 200, 100].enumerated() {
            let record = try pending(user: user)
            try await store.insertPendingEnrollment(record)
            var enrolled = factor(from: record, at: time, step: nil)
            enrolled.id = "\(user)-\(index)"
            _ = try await store.finalizeEnrollment(pendingID: record.id, factor: enrolled, maximumFactorCount: 5)
            expected.append(enrolled.id)
        }
        let otherRecord = try pending(user: other)
        try await store.insertPendingEnrollment(otherRecord)
        _ = try await store.finalizeEnrollment(pendingID: otherRecord.id, factor: factor(from: otherRecord, at: 1, step: nil), maximumFactorCount: 5)
        // Enrolled at 300, 100, 200, 100: ordered by time, ties by id.
        try checkEqual(try await store.factors(userID: user).map(\.id), [expected[1], expected[3], expected[2], expected[0]], "factor order")
        try checkEqual(try await store.factors(userID: other).count, 1, "the other user's factors")
        try checkEqual(try await store.factors(userID: uniqueID("nobody")).count, 0, "an unknown user's factors")
        try check(try await store.factor(id: uniqueID("missing")) == nil, "an unknown factor is nil")
    }

    static func factorRoundTrip(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        for (name, algorithm, step) in [
            ("Téléphone 📱 de Zoë", OTPAlgorithm.sha512, UInt64?.some(UInt64(Int64.max))), ("", .sha256, 0), (nil, .sha1, nil),
        ] {
            let record = try pending(user: user, algorithm: algorithm, byteCount: algorithm.recommendedSecretByteCount, digits: 10, period: 15)
            try await store.insertPendingEnrollment(record)
            var enrolled = factor(from: record, at: -5, step: step)
            enrolled.displayName = name
            _ = try await store.finalizeEnrollment(pendingID: record.id, factor: enrolled, maximumFactorCount: 5)
            try check(
                try await store.factor(id: enrolled.id) == enrolled,
                "factor with display name \(name.map { "\"\($0)\"" } ?? "nil") and step \(step.map(String.init) ?? "nil") reads back unchanged")
        }
    }

    static func removeFactorScoped(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let record = try pending(user: user)
        try await store.insertPendingEnrollment(record)
        let enrolled = factor(from: record, at: 10, step: 7)
        _ = try await store.finalizeEnrollment(pendingID: record.id, factor: enrolled, maximumFactorCount: 5)
        _ = try await store.recordFailure(key: enrolled.id, at: 10, limit: 5, lockout: 60)
        try check(try await store.removeFactor(id: enrolled.id, userID: uniqueID("intruder")) == nil, "another user cannot remove the factor")
        try check(try await store.factor(id: enrolled.id) == enrolled, "the factor survives another user's removal")
        try check(try await store.removeFactor(id: enrolled.id, userID: user) == enrolled, "removal returns the factor")
        try check(try await store.factor(id: enrolled.id) == nil, "a removed factor is gone")
        try checkEqual(try await store.factors(userID: user).count, 0, "factors after removal")
        try checkEqual(try await store.failureCounter(key: enrolled.id), .zero, "a removed factor's failure counter")
        try check(try await store.removeFactor(id: enrolled.id, userID: user) == nil, "a second removal finds nothing")
        try checkEqual(try await store.recordAcceptedStep(8, factorID: enrolled.id), .factorNotFound, "accepting a step of a removed factor")
    }

    static func renameFactorScoped(_ store: any AuthStore) async throws {
        let totp = try await enrolledFactor(in: store, step: 4)
        let user = totp.userID
        let phone = try await enrollPhone(store, user: user, number: "+12015550123", at: 300)
        let renamed = auditEvent(.factorRenamed, user: user)
        func rename(_ id: String, of owner: String = user, phone isPhone: Bool = false, to name: String?) async throws -> Bool {
            try await audited(renamed) {
                isPhone
                    ? try await store.renamePhoneFactor(id: id, userID: owner, displayName: name)
                    : try await store.renameFactor(id: id, userID: owner, displayName: name)
            }
        }
        try checkEqual(try await rename(totp.id, of: uniqueID("intruder"), to: "Stolen"), false, "another user renaming the TOTP factor")
        try checkEqual(
            try await rename(phone.id, of: uniqueID("intruder"), phone: true, to: "Stolen"), false, "another user renaming the phone factor")
        try checkEqual(try await rename(phone.id, to: "Wrong kind"), false, "renaming a phone factor as a TOTP factor")
        try checkEqual(try await rename(totp.id, phone: true, to: "Wrong kind"), false, "renaming a TOTP factor as a phone factor")
        try checkEqual(try await store.factor(id: totp.id), totp, "the TOTP factor after the refusals")
        try checkEqual(try await store.phoneFactor(id: phone.id), phone, "the phone factor after the refusals")
        try checkEqual(try await auditEvents(of: user, in: store).count, 0, "events written by the refusals")

        try checkEqual(try await rename(totp.id, to: "Work phone — 仕事"), true, "renaming the TOTP factor")
        var expectedTOTP = totp
        expectedTOTP.displayName = "Work phone — 仕事"
        try checkEqual(try await store.factor(id: totp.id), expectedTOTP, "the renamed TOTP factor, its secret and step unchanged")
        try checkEqual(try await rename(phone.id, phone: true, to: "Mobile"), true, "renaming the phone factor")
        var expectedPhone = phone
        expectedPhone.displayName = "Mobile"
        try checkEqual(try await store.phoneFactors(userID: user), [expectedPhone], "the renamed phone factor")
        try checkEqual(try await rename(totp.id, to: nil), true, "removing the TOTP factor's name")
        try checkEqual(try await store.factor(id: totp.id)?.displayName, nil, "the TOTP factor's name after its removal")
        try checkEqual(
            try await auditEvents(of: user, in: store).map(\.kind), [.factorRenamed, .factorRenamed, .factorRenamed], "one event per rename")
    }

    static func acceptedStepCompareAndSet(_ store: any AuthStore) async throws {
        let fresh = try await enrolledFactor(in: store, step: nil)
        try checkEqual(try await store.recordAcceptedStep(10, factorID: fresh.id), .accepted, "first step of a factor with none")
        try checkEqual(try await store.recordAcceptedStep(10, factorID: fresh.id), .rejected(lastAcceptedStep: 10), "the same step again")
        try checkEqual(try await store.recordAcceptedStep(9, factorID: fresh.id), .rejected(lastAcceptedStep: 10), "an earlier step")
        try checkEqual(try await store.recordAcceptedStep(0, factorID: fresh.id), .rejected(lastAcceptedStep: 10), "step 0")
        try checkEqual(try await store.recordAcceptedStep(11, factorID: fresh.id), .accepted, "a later step")
        try checkEqual(try await store.factor(id: fresh.id)?.lastAcceptedStep, 11, "the stored step")
        let big = UInt64(Int64.max)
        try checkEqual(try await store.recordAcceptedStep(big - 1, factorID: fresh.id), .accepted, "a step near Int64.max")
        try checkEqual(
            try await store.recordAcceptedStep(12, factorID: fresh.id), .rejected(lastAcceptedStep: big - 1), "a small step after a big one")
        try checkEqual(try await store.recordAcceptedStep(big, factorID: fresh.id), .accepted, "step Int64.max")

        let started = try await enrolledFactor(in: store, step: 42)
        try checkEqual(
            try await store.recordAcceptedStep(42, factorID: started.id), .rejected(lastAcceptedStep: 42), "the step accepted at enrollment")
        try checkEqual(try await store.recordAcceptedStep(0, factorID: started.id), .rejected(lastAcceptedStep: 42), "step 0 after enrollment")
        try checkEqual(try await store.recordAcceptedStep(43, factorID: started.id), .accepted, "the step after enrollment's")
        try checkEqual(try await store.recordAcceptedStep(1, factorID: uniqueID("missing")), .factorNotFound, "a step of an unknown factor")
    }

    static func concurrentSameStep(_ store: any AuthStore) async throws {
        let enrolled = try await enrolledFactor(in: store, step: 5)
        let outcomes = try await withThrowingTaskGroup(of: StepAcceptance.self) { group in
            for _ in 0..<100 {
                group.addTask { try await store.recordAcceptedStep(6, factorID: enrolled.id) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .accepted }.count, 1, "acceptances of one step among 100 concurrent attempts")
        try checkEqual(outcomes.filter { $0 == .rejected(lastAcceptedStep: 6) }.count, 99, "rejections naming the accepted step")
    }

    static func concurrentDifferentSteps(_ store: any AuthStore) async throws {
        let enrolled = try await enrolledFactor(in: store, step: nil)
        let outcomes = try await withThrowingTaskGroup(of: (UInt64, StepAcceptance).self) { group in
            for step in UInt64(1)...100 {
                group.addTask { (step, try await store.recordAcceptedStep(step, factorID: enrolled.id)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try checkEqual(try await store.factor(id: enrolled.id)?.lastAcceptedStep, 100, "the stored step after steps 1...100 raced")
        try check(outcomes.contains { $0 == (100, .accepted) }, "step 100 is accepted")
        for case (let step, .rejected(let last)) in outcomes {
            try check(last >= step, "step \(step) was rejected only because step \(last) was accepted")
        }
    }

    // MARK: Failures

    static func failureCounting(_ store: any AuthStore) async throws {
        let key = uniqueID("factor")
        try checkEqual(try await store.failureCounter(key: key), .zero, "a counter never used")
        try checkEqual(
            try await store.recordFailure(key: key, at: 1_000, limit: 3, lockout: 60), FailureCounter(consecutiveFailures: 1, lockedUntil: nil),
            "first failure")
        try checkEqual(
            try await store.recordFailure(key: key, at: 1_001, limit: 3, lockout: 60), FailureCounter(consecutiveFailures: 2, lockedUntil: nil),
            "second failure")
        let locked = try await store.recordFailure(key: key, at: 1_002, limit: 3, lockout: 60)
        try checkEqual(locked, FailureCounter(consecutiveFailures: 0, lockedUntil: 1_062), "failure at the limit")
        try checkEqual(try await store.failureCounter(key: key), locked, "the stored locked counter")
        try check(locked.isLocked(at: 1_061) && !locked.isLocked(at: 1_062), "the lock lasts until the lockout ends")
        try checkEqual(
            try await store.recordFailure(key: key, at: 1_062, limit: 3, lockout: 60), FailureCounter(consecutiveFailures: 1, lockedUntil: nil),
            "first failure after the lock ended")
        try await store.resetFailures(key: key)
        try checkEqual(try await store.failureCounter(key: key), .zero, "a reset counter")
        try await store.resetFailures(key: uniqueID("missing"))
    }

    static func concurrentFailures(_ store: any AuthStore) async throws {
        let key = uniqueID("factor")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { _ = try await store.recordFailure(key: key, at: 50, limit: 1_000, lockout: 60) }
            }
            try await group.waitForAll()
        }
        try checkEqual(try await store.failureCounter(key: key).consecutiveFailures, 100, "failures after 100 concurrent ones")
    }

    static func failureKeysIndependent(_ store: any AuthStore) async throws {
        let first = uniqueID("factor")
        let second = uniqueID("pending")
        _ = try await store.recordFailure(key: first, at: 0, limit: 2, lockout: 30)
        _ = try await store.recordFailure(key: first, at: 0, limit: 2, lockout: 30)
        _ = try await store.recordFailure(key: second, at: 0, limit: 2, lockout: 30)
        try checkEqual(try await store.failureCounter(key: first), FailureCounter(consecutiveFailures: 0, lockedUntil: 30), "the locked key")
        try checkEqual(try await store.failureCounter(key: second), FailureCounter(consecutiveFailures: 1, lockedUntil: nil), "the other key")
        try await store.resetFailures(key: second)
        try checkEqual(try await store.failureCounter(key: first).lockedUntil, 30, "a lock survives resetting another key")
    }

    // MARK: Pending sign-ins

    static func pendingSignInSpentOnce(_ store: any AuthStore) async throws {
        let record = pendingSignIn(of: uniqueID("user"))
        try checkEqual(try await store.isPendingSignInSpent(record), false, "a pending sign-in before it is spent")
        try checkEqual(try await store.spendPendingSignIn(record), true, "spending it")
        try checkEqual(try await store.spendPendingSignIn(record), false, "spending it again")
        try checkEqual(try await store.isPendingSignInSpent(record), true, "a spent pending sign-in")
        try checkEqual(try await store.isPendingSignInSpent(pendingSignIn(of: record.userID)), false, "another pending sign-in")
    }

    static func concurrentSpend(_ store: any AuthStore) async throws {
        let record = PendingSignInRecord(
            id: uniqueID("credential"), userID: uniqueID("user"), firstFactorProvider: "google.com", createdAt: 0, expiresAt: 10)
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 {
                group.addTask { try await store.spendPendingSignIn(record) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(winners, 1, "calls that spent the pending sign-in among 100 concurrent ones")
    }

    // MARK: Sessions

    static func sessions(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let other = uniqueID("user")
        let factorID = uniqueID("factor")
        func session(_ userID: String, _ secondFactor: String?) -> SessionRecord {
            SessionRecord(
                id: uniqueID("session"), userID: userID, firstFactorProvider: "password", authenticatedAt: 77,
                secondFactorEnrollmentID: secondFactor, lastUsedAt: 78, expiresAt: 10_000
            )
        }
        var kept = session(user, nil)
        // A custom token's developer claims, with what a careless serialization would mangle.
        kept.sessionClaims = #"{"note":"ü \"quoted\" 🎉","premium":true,"tier":2}"#
        let plain = session(user, nil)
        let withFactor = session(user, factorID)
        let withFactor2 = session(user, factorID)
        let otherUsers = session(other, factorID)
        for record in [kept, plain, withFactor, withFactor2, otherUsers] {
            try checkEqual(try await store.insertSession(record, maximumPerUser: 10), 0, "sessions ended by an insert under the limit")
        }
        try checkEqual(try await store.session(id: withFactor.id), withFactor, "a session reads back unchanged")
        try checkEqual(try await store.session(id: kept.id), kept, "a session with claims reads back unchanged")
        var earlier = session(user, nil)
        earlier.authenticatedAt = 70
        try await store.insertSession(earlier, maximumPerUser: 10)
        try checkEqual(
            try await store.sessions(userID: user), [earlier] + [kept, plain, withFactor, withFactor2].sorted { $0.id < $1.id },
            "a user's sessions, oldest sign-in first, then by id")
        try checkEqual(try await store.sessions(userID: other), [otherUsers], "another user's sessions")
        try await store.removeSession(id: earlier.id)
        try checkEqual(try await store.removeSessions(userID: user, signedInWith: factorID), 2, "sessions ended for one second factor")
        try checkEqual(try await store.session(id: withFactor2.id), nil, "a session signed in with the removed factor")
        try checkEqual(try await store.session(id: otherUsers.id), otherUsers, "another user's session with the same factor id")
        try checkEqual(try await store.removeSessions(userID: user, except: kept.id), 1, "sessions ended except the current one")
        try checkEqual(try await store.session(id: plain.id), nil, "a revoked session")
        try checkEqual(try await store.session(id: kept.id), kept, "the kept session")
        try check(try await store.extendSession(id: kept.id, lastUsedAt: 500, expiresAt: 20_000), "extending a stored session")
        var extended = kept
        extended.lastUsedAt = 500
        extended.expiresAt = 20_000
        try checkEqual(try await store.session(id: kept.id), extended, "an extended session")
        try check(!(try await store.extendSession(id: uniqueID("session"), lastUsedAt: 500, expiresAt: 20_000)), "extending an unknown session")
        try await store.removeSession(id: kept.id)
        try checkEqual(try await store.session(id: kept.id), nil, "an ended session")
        try await store.removeSession(id: kept.id)
        try checkEqual(try await store.removeSessions(userID: other, except: nil), 1, "every session of the other user")
        try checkEqual(try await store.removeSessions(userID: uniqueID("nobody"), except: nil), 0, "sessions of an unknown user")
        try checkEqual(try await store.sessions(userID: user), [], "a user's sessions once every one ended")
    }

    static func sessionLimit(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let other = uniqueID("user")
        func session(_ userID: String, id: String = uniqueID("session")) -> SessionRecord {
            SessionRecord(
                id: id, userID: userID, firstFactorProvider: "password", authenticatedAt: 300, secondFactorEnrollmentID: nil, lastUsedAt: 300,
                expiresAt: 10_000)
        }
        let othersSession = session(other)
        try await store.insertSession(othersSession, maximumPerUser: 1)
        var stored: [SessionRecord] = []
        for _ in 0..<3 {
            let record = session(user)
            try checkEqual(try await store.insertSession(record, maximumPerUser: 3), 0, "sessions ended by an insert up to the limit")
            stored.append(record)
        }
        let fourth = session(user)
        try checkEqual(try await store.insertSession(fourth, maximumPerUser: 3), 1, "sessions ended by an insert past the limit")
        try checkEqual(try await store.session(id: stored[0].id), nil, "the oldest session once the limit was passed")
        for record in stored[1...] + [fourth] {
            try checkEqual(try await store.session(id: record.id), record, "a newer session once the limit was passed")
        }
        // Same sign-in time, and an id that sorts first: the order of storing decides, not the id.
        let newest = session(user, id: "0" + uniqueID("session"))
        try checkEqual(try await store.insertSession(newest, maximumPerUser: 1), 3, "sessions ended by an insert with a limit of one")
        try checkEqual(try await store.session(id: newest.id), newest, "the session just stored")
        try checkEqual(try await store.session(id: othersSession.id), othersSession, "another user's session")

        let factor = try await enrolledFactor(in: store, step: 5)
        let earlier = session(factor.userID)
        try await store.insertSession(earlier, maximumPerUser: 2)
        let later = session(factor.userID)
        try await store.insertSession(later, maximumPerUser: 2)
        let credential = pendingSignIn(of: factor.userID)
        let signedIn = signInSession(of: factor)
        try checkEqual(
            try await store.completeSignIn(
                credential: credential, factorID: factor.id, step: 6, at: 200, session: signedIn, maximumSessionsPerUser: 2),
            .completed, "completing a sign-in of a user at the session limit"
        )
        try checkEqual(try await store.session(id: earlier.id), nil, "the oldest session after a sign-in past the limit")
        try checkEqual(try await store.session(id: later.id), later, "the newer session after a sign-in past the limit")
        try checkEqual(try await store.session(id: signedIn.id), signedIn, "the session of the sign-in")
    }

    // MARK: Sign-in in fewer round trips

    static func signInFactors(_ store: any AuthStore) async throws {
        let enrolled = try await enrolledFactor(in: store, step: 5)
        try checkEqual(
            try await store.signInFactors(userID: enrolled.userID), SignInFactors(totp: [enrolled], phone: []),
            "the factors of a user starting a sign-in")
        try checkEqual(
            try await store.signInFactors(userID: uniqueID("user")), SignInFactors(totp: [], phone: []), "the factors of a user without any")
    }

    static func pendingSignInContext(_ store: any AuthStore) async throws {
        let totp = try await enrolledFactor(in: store, step: 7)
        let user = totp.userID
        let phone = try await enrollPhone(store, user: user, number: "+12015550123", at: 300)
        let account = AccountRecord(id: user, email: "\(uniqueID("ada"))@example.com", isEmailVerified: true, createdAt: 1)
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"), email: "ada@gmail.com", displayName: "Ada")
        let github = ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub"))
        try checkEqual(try await store.insertAccount(account, identity: google), .inserted, "the account of a user with factors")
        try checkEqual(try await store.linkProviderIdentity(github, accountID: user), .linked, "a second identity")
        let credential = pendingSignIn(of: user)
        try checkEqual(
            try await store.pendingSignInContext(credential),
            PendingSignInContext(
                credential: credential, account: account, identities: [github, google], factors: SignInFactors(totp: [totp], phone: [phone])),
            "a pending sign-in with everything its second step needs")

        let stranger = pendingSignIn(of: uniqueID("user"))
        try checkEqual(
            try await store.pendingSignInContext(stranger),
            PendingSignInContext(credential: stranger, account: nil, identities: [], factors: SignInFactors(totp: [], phone: [])),
            "a pending sign-in of a user without an account or factors")
        try checkEqual(try await store.spendPendingSignIn(credential), true, "spending the pending sign-in")
        try checkEqual(try await store.pendingSignInContext(credential), nil, "a spent pending sign-in")
    }

    static func pendingSignInWithFailures(_ store: any AuthStore) async throws {
        let credential = pendingSignIn(of: uniqueID("user"))
        let key = uniqueID("factor")
        try checkEqual(
            try await store.pendingSignInFailures(credential, failureKey: key), .zero,
            "the failure counter of a key without failures")
        _ = try await store.recordFailure(key: key, at: 150, limit: 5, lockout: 60)
        try checkEqual(
            try await store.pendingSignInFailures(credential, failureKey: key)?.consecutiveFailures, 1,
            "the failures counted under the key")
        try checkEqual(try await store.spendPendingSignIn(credential), true, "spending the pending sign-in")
        try checkEqual(
            try await store.pendingSignInFailures(credential, failureKey: key), nil, "the failures of a spent pending sign-in")
    }

    static func completeSignIn(_ store: any AuthStore) async throws {
        let factor = try await enrolledFactor(in: store, step: 5)
        let credential = pendingSignIn(of: factor.userID)
        _ = try await store.recordFailure(key: factor.id, at: 150, limit: 5, lockout: 60)
        let session = signInSession(of: factor)
        try checkEqual(
            try await store.completeSignIn(
                credential: credential, factorID: factor.id, step: 6, at: 200, session: session, maximumSessionsPerUser: 10),
            .completed, "completing a pending sign-in"
        )
        try checkEqual(try await store.isPendingSignInSpent(credential), true, "the credential after completion")
        try checkEqual(try await store.session(id: session.id), session, "the session of a completed sign-in")
        try checkEqual(try await store.factor(id: factor.id)?.lastAcceptedStep, 6, "the step of a completed sign-in")
        try checkEqual(try await store.failureCounter(key: factor.id), .zero, "the failures after completion")
        let late = signInSession(of: factor)
        try checkEqual(
            try await store.completeSignIn(
                credential: credential, factorID: factor.id, step: 7, at: 201, session: late, maximumSessionsPerUser: 10),
            .credentialNotFound, "completing it again"
        )
        try checkEqual(try await store.session(id: late.id), nil, "the session of a second completion")
        try checkEqual(try await store.factor(id: factor.id)?.lastAcceptedStep, 6, "the step after a second completion")
        try checkEqual(try await store.removeSessions(userID: factor.userID, signedInWith: factor.id), 1, "the user's sessions with the factor")
    }

    static func completeSignInRefusals(_ store: any AuthStore) async throws {
        let factor = try await enrolledFactor(in: store, step: 5)
        let stranger = try await enrolledFactor(in: store, step: nil)
        let credential = pendingSignIn(of: factor.userID)
        func complete(
            _ credential: PendingSignInRecord = credential, factorID: String = factor.id, step: UInt64 = 6, at time: Int64 = 200
        ) async throws -> SignInCompletion {
            let session = signInSession(of: factor)
            let completion = try await store.completeSignIn(
                credential: credential, factorID: factorID, step: step, at: time, session: session, maximumSessionsPerUser: 10)
            if completion != .completed {
                try checkEqual(try await store.session(id: session.id), nil, "the session of a refused completion (\(completion))")
            }
            return completion
        }
        let spent = pendingSignIn(of: factor.userID)
        try checkEqual(try await store.spendPendingSignIn(spent), true, "spending a pending sign-in")
        try checkEqual(try await complete(spent), .credentialNotFound, "a spent credential")
        try checkEqual(try await complete(factorID: uniqueID("factor")), .factorNotFound, "an unknown factor")
        try checkEqual(try await complete(factorID: stranger.id), .factorNotFound, "another user's factor")
        try checkEqual(try await complete(step: 5), .stepRejected(lastAcceptedStep: 5), "the step accepted already")
        try checkEqual(try await complete(step: 4), .stepRejected(lastAcceptedStep: 5), "an earlier step")
        _ = try await store.recordFailure(key: factor.id, at: 150, limit: 1, lockout: 60)
        try checkEqual(try await complete(at: 209), .locked(until: 210), "a locked factor")
        try checkEqual(try await store.factor(id: factor.id)?.lastAcceptedStep, 5, "the step after refusals")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "the credential after refusals")
        try checkEqual(try await complete(at: 401), .credentialExpired(expiresAt: 400), "an expired credential")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "an expired credential after completing it")
        try checkEqual(try await store.factor(id: factor.id)?.lastAcceptedStep, 5, "the step after an expired credential")
        try checkEqual(try await complete(at: 210), .completed, "a completion when the lock has ended")
    }

    static func concurrentCompleteSignIn(_ store: any AuthStore) async throws {
        let factor = try await enrolledFactor(in: store, step: 5)
        let credential = pendingSignIn(of: factor.userID)
        let sessions = (0..<100).map { _ in signInSession(of: factor) }
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (offset, session) in sessions.enumerated() {
                group.addTask {
                    try await store.completeSignIn(
                        credential: credential, factorID: factor.id, step: 6 + UInt64(offset), at: 200, session: session,
                        maximumSessionsPerUser: 10) == .completed
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(winners, 1, "completions of one credential among 100 concurrent ones with different steps")
        var stored = 0
        for session in sessions {
            if try await store.session(id: session.id) != nil { stored += 1 }
        }
        try checkEqual(stored, 1, "sessions stored by 100 concurrent completions")
    }

    static func concurrentCompleteSameStep(_ store: any AuthStore) async throws {
        let factor = try await enrolledFactor(in: store, step: 5)
        var credentials: [PendingSignInRecord] = []
        for _ in 0..<100 {
            credentials.append(pendingSignIn(of: factor.userID))
        }
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for credential in credentials {
                group.addTask {
                    try await store.completeSignIn(
                        credential: credential, factorID: factor.id, step: 6, at: 200, session: signInSession(of: factor),
                        maximumSessionsPerUser: 10) == .completed
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(winners, 1, "completions with one step among 100 concurrent ones on different credentials")
        try checkEqual(try await store.removeSessions(userID: factor.userID, except: nil), 1, "sessions stored by them")
    }

    // MARK: Recovery codes

    static func digest(_ byte: UInt8) -> [UInt8] {
        [UInt8](repeating: byte, count: 31) + [UInt8.random(in: 0...255)]
    }

    static func completeWithCode(
        _ store: any AuthStore, credential: PendingSignInRecord, digests: [[UInt8]], at time: Int64 = 200
    ) async throws -> (SignInCompletion, SessionRecord) {
        let session = SessionRecord(
            id: uniqueID("session"), userID: credential.userID, firstFactorProvider: "password", authenticatedAt: time,
            secondFactorEnrollmentID: "recovery", lastUsedAt: time, expiresAt: 5_000)
        let completion = try await store.completeSignIn(
            credential: credential, recoveryCodeDigests: digests, failureKey: "recovery:\(credential.userID)", at: time, session: session,
            maximumSessionsPerUser: 10)
        return (completion, session)
    }

    static func recoveryCodes(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let old = [digest(1), digest(2), digest(3)]
        try await store.replaceRecoveryCodes(userID: user, digests: old)
        try checkEqual(try await store.recoveryCodeCount(userID: user), 3, "codes after the first set")
        let fresh = [digest(4), digest(5)]
        try await store.replaceRecoveryCodes(userID: user, digests: fresh)
        try checkEqual(try await store.recoveryCodeCount(userID: user), 2, "codes after a new set")
        try checkEqual(try await store.recoveryCodeCount(userID: uniqueID("user")), 0, "codes of a user who has none")

        let credential = pendingSignIn(of: user)
        try checkEqual(try await completeWithCode(store, credential: credential, digests: [old[0]]).0, .codeRejected, "a code of the voided set")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "the credential after a refused code")
        _ = try await store.recordFailure(key: "recovery:\(user)", at: 150, limit: 5, lockout: 60)
        let (completion, session) = try await completeWithCode(store, credential: credential, digests: [digest(9), fresh[1]])
        try checkEqual(completion, .completed, "a code of the current set, among the digests offered")
        try checkEqual(try await store.recoveryCodeCount(userID: user), 1, "codes after one was spent")
        try checkEqual(try await store.isPendingSignInSpent(credential), true, "the credential after completion")
        try checkEqual(try await store.session(id: session.id), session, "the session of the completion")
        try checkEqual(try await store.failureCounter(key: "recovery:\(user)"), .zero, "the failures after completion")

        let again = pendingSignIn(of: user)
        try checkEqual(try await completeWithCode(store, credential: again, digests: [fresh[1]]).0, .codeRejected, "a spent code")
        let other = uniqueID("user")
        try await store.replaceRecoveryCodes(userID: other, digests: [digest(7)])
        try checkEqual(
            try await completeWithCode(store, credential: again, digests: [digest(7)]).0, .codeRejected, "another user's code")
        try checkEqual(try await store.recoveryCodeCount(userID: other), 1, "the other user's codes after the refusal")
        try await store.replaceRecoveryCodes(userID: user, digests: [])
        try checkEqual(try await store.recoveryCodeCount(userID: user), 0, "codes after an empty set")
    }

    static func recoveryCodeRefusals(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let code = digest(1)
        try await store.replaceRecoveryCodes(userID: user, digests: [code])
        let credential = pendingSignIn(of: user)
        let spent = pendingSignIn(of: user)
        try checkEqual(try await store.spendPendingSignIn(spent), true, "spending a pending sign-in")
        try checkEqual(try await completeWithCode(store, credential: spent, digests: [code]).0, .credentialNotFound, "a spent credential")
        _ = try await store.recordFailure(key: "recovery:\(user)", at: 150, limit: 1, lockout: 100)
        try checkEqual(try await completeWithCode(store, credential: credential, digests: [code]).0, .locked(until: 250), "a locked user")
        try checkEqual(try await store.recoveryCodeCount(userID: user), 1, "codes after refusals")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "the credential after refusals")
        try checkEqual(
            try await completeWithCode(store, credential: credential, digests: [code], at: 401).0, .credentialExpired(expiresAt: 400),
            "an expired credential")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "an expired credential after completing with it")
        try checkEqual(try await store.recoveryCodeCount(userID: user), 1, "codes after an expired credential")
    }

    static func concurrentRecoveryCode(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let code = digest(1)
        try await store.replaceRecoveryCodes(userID: user, digests: [code, digest(2)])
        var credentials: [PendingSignInRecord] = []
        for _ in 0..<50 { credentials.append(pendingSignIn(of: user)) }
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for credential in credentials {
                group.addTask { try await completeWithCode(store, credential: credential, digests: [code]).0 == .completed }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(winners, 1, "completions with one code among 50 concurrent ones")
        try checkEqual(try await store.recoveryCodeCount(userID: user), 1, "codes left")
        try checkEqual(try await store.removeSessions(userID: user, except: nil), 1, "sessions stored by them")
    }

    // MARK: Phone factors

    static func verification(
        _ purpose: PhoneVerificationRecord.Purpose, user: String, number: String = "+12015550123", code: [UInt8] = digest(1),
        enrollmentID: String? = nil, credentialID: String? = nil, expiresAt: Int64 = 500
    ) -> PhoneVerificationRecord {
        PhoneVerificationRecord(
            id: uniqueID("verification"), purpose: purpose, userID: user, enrollmentID: enrollmentID, credentialID: credentialID,
            phoneNumber: number, codeDigest: code, createdAt: 200, expiresAt: expiresAt, failedAttempts: 0)
    }

    static func firstFactorVerification(_ store: any AuthStore) async throws {
        let record = verification(.firstFactor, user: "")
        try await store.insertPhoneVerification(record)
        func consume(_ id: String = record.id, digests: [[UInt8]] = [record.codeDigest], at time: Int64 = 300) async throws
            -> PhoneVerificationConsumption
        {
            try await store.consumeFirstFactorVerification(id, codeDigests: digests, at: time, maximumAttempts: 3)
        }
        try checkEqual(try await consume(uniqueID("verification")), .verificationNotFound, "an unknown verification")
        let enrollment = verification(.enrollment, user: uniqueID("user"))
        try await store.insertPhoneVerification(enrollment)
        try checkEqual(try await consume(enrollment.id, digests: [enrollment.codeDigest]), .verificationNotFound, "an enrollment verification")
        try checkEqual(try await store.phoneVerification(id: enrollment.id), enrollment, "the enrollment verification, untouched")

        try checkEqual(try await consume(digests: [digest(9)]), .wrongCode(attemptsLeft: 2), "a wrong code")
        var counted = record
        counted.failedAttempts = 1
        try checkEqual(try await store.phoneVerification(id: record.id), counted, "the verification after a wrong code")
        try checkEqual(try await consume(digests: [digest(9), record.codeDigest]), .consumed(counted), "the right code among the digests")
        try checkEqual(try await store.phoneVerification(id: record.id), nil, "the verification after its code was spent")
        try checkEqual(try await consume(), .verificationNotFound, "the same code again")

        let capped = verification(.firstFactor, user: "")
        try await store.insertPhoneVerification(capped)
        _ = try await consume(capped.id, digests: [digest(9)])
        _ = try await consume(capped.id, digests: [digest(9)])
        try checkEqual(try await consume(capped.id, digests: [digest(9)]), .verificationExpired, "the last wrong code allowed")
        try checkEqual(try await consume(capped.id, digests: [capped.codeDigest]), .verificationNotFound, "the right code after the cap")

        let expired = verification(.firstFactor, user: "", expiresAt: 250)
        try await store.insertPhoneVerification(expired)
        try checkEqual(try await consume(expired.id, digests: [expired.codeDigest]), .verificationExpired, "an expired code")
        try checkEqual(try await store.phoneVerification(id: expired.id), nil, "an expired verification, deleted")
    }

    static func concurrentFirstFactorVerification(_ store: any AuthStore) async throws {
        let record = verification(.firstFactor, user: "")
        try await store.insertPhoneVerification(record)
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    if case .consumed = try await store.consumeFirstFactorVerification(
                        record.id, codeDigests: [record.codeDigest], at: 300, maximumAttempts: 5)
                    {
                        return true
                    }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(winners, 1, "consumptions of one code among 50 concurrent ones")
    }

    static func enrollPhone(
        _ store: any AuthStore, user: String, number: String = "+12015550123", at time: Int64 = 300
    ) async throws -> PhoneFactorRecord {
        let record = verification(.enrollment, user: user, number: number)
        try await store.insertPhoneVerification(record)
        let outcome = try await store.finalizePhoneEnrollment(
            verificationID: record.id, userID: user, codeDigests: [record.codeDigest], at: time, maximumAttempts: 5,
            factorID: uniqueID("phone"), displayName: "Phone", maximumFactorCount: 5)
        guard case .enrolled(let factor) = outcome else {
            throw AuthStoreConformanceFailure(message: "enrolling a fixture phone factor: \(outcome)", file: #filePath, line: #line)
        }
        return factor
    }

    static func phoneEnrollment(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let record = verification(.enrollment, user: user)
        try await store.insertPhoneVerification(record)
        try checkEqual(try await store.phoneVerification(id: record.id), record, "a verification reads back unchanged")
        func finalize(_ id: String = record.id, user: String = user, digests: [[UInt8]] = [record.codeDigest], factorID: String) async throws
            -> PhoneEnrollmentFinalization
        {
            try await store.finalizePhoneEnrollment(
                verificationID: id, userID: user, codeDigests: digests, at: 300, maximumAttempts: 5, factorID: factorID, displayName: "Work",
                maximumFactorCount: 5)
        }
        try checkEqual(try await finalize(uniqueID("verification"), factorID: uniqueID("phone")), .verificationNotFound, "an unknown verification")
        try checkEqual(try await finalize(user: uniqueID("user"), factorID: uniqueID("phone")), .verificationNotFound, "another user's verification")
        let signIn = verification(.signIn, user: user, enrollmentID: uniqueID("phone"), credentialID: uniqueID("credential"))
        try await store.insertPhoneVerification(signIn)
        try checkEqual(try await finalize(signIn.id, factorID: uniqueID("phone")), .verificationNotFound, "a sign-in verification")
        try checkEqual(try await store.phoneVerification(id: record.id), record, "the verification after refusals")

        let factorID = uniqueID("phone")
        guard case .enrolled(let factor) = try await finalize(digests: [digest(9), record.codeDigest], factorID: factorID) else {
            throw AuthStoreConformanceFailure(message: "a right code did not enroll", file: #filePath, line: #line)
        }
        try checkEqual(
            factor, PhoneFactorRecord(id: factorID, userID: user, displayName: "Work", enrolledAt: 300, phoneNumber: record.phoneNumber),
            "the enrolled phone factor")
        try checkEqual(try await store.phoneVerification(id: record.id), nil, "the verification after enrolling")
        try checkEqual(try await finalize(factorID: uniqueID("phone")), .verificationNotFound, "the same verification again")
        let again = verification(.enrollment, user: user)
        try await store.insertPhoneVerification(again)
        try checkEqual(
            try await finalize(again.id, digests: [again.codeDigest], factorID: uniqueID("phone")), .numberAlreadyEnrolled,
            "the same number again")
        try checkEqual(try await store.phoneVerification(id: again.id), again, "a verification refused for a duplicate number")
        try checkEqual(try await store.phoneFactors(userID: user), [factor], "the user's phone factors")
    }

    static func phoneEnrollmentAttempts(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let record = verification(.enrollment, user: user)
        try await store.insertPhoneVerification(record)
        for left in [2, 1] {
            try checkEqual(
                try await store.finalizePhoneEnrollment(
                    verificationID: record.id, userID: user, codeDigests: [digest(9)], at: 300, maximumAttempts: 3, factorID: uniqueID("phone"),
                    displayName: nil, maximumFactorCount: 5), .wrongCode(attemptsLeft: left), "a wrong code")
        }
        try checkEqual(try await store.phoneVerification(id: record.id)?.failedAttempts, 2, "the attempts counted")
        try checkEqual(
            try await store.finalizePhoneEnrollment(
                verificationID: record.id, userID: user, codeDigests: [digest(9)], at: 300, maximumAttempts: 3, factorID: uniqueID("phone"),
                displayName: nil, maximumFactorCount: 5), .verificationExpired, "the last wrong code allowed")
        try checkEqual(try await store.phoneVerification(id: record.id), nil, "the verification after its last attempt")

        let late = verification(.enrollment, user: user)
        try await store.insertPhoneVerification(late)
        try checkEqual(
            try await store.finalizePhoneEnrollment(
                verificationID: late.id, userID: user, codeDigests: [late.codeDigest], at: 501, maximumAttempts: 3, factorID: uniqueID("phone"),
                displayName: nil, maximumFactorCount: 5), .verificationExpired, "a right code after the expiry")
        try checkEqual(try await store.phoneFactors(userID: user), [], "factors after refusals")
        let purged = verification(.enrollment, user: user, expiresAt: 999)
        let kept = verification(.enrollment, user: user, expiresAt: 1_000)
        try await store.insertPhoneVerification(purged)
        try await store.insertPhoneVerification(kept)
        try await store.purgeExpired(before: 1_000, failuresCountedBefore: 0)
        try checkEqual(try await store.phoneVerification(id: purged.id), nil, "an expired verification after purging")
        try checkEqual(try await store.phoneVerification(id: kept.id), kept, "a verification at its expiry after purging")
        try await store.removePhoneVerification(id: kept.id)
        try checkEqual(try await store.phoneVerification(id: kept.id), nil, "a removed verification")
    }

    static func phoneSignIn(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let factor = try await enrollPhone(store, user: user)
        let credential = pendingSignIn(of: user)
        let record = verification(.signIn, user: user, enrollmentID: factor.id, credentialID: credential.id)
        try await store.insertPhoneVerification(record)
        func complete(_ id: String = record.id, credential: PendingSignInRecord = credential, digests: [[UInt8]], at time: Int64 = 250) async throws
            -> (SignInCompletion, SessionRecord)
        {
            let session = SessionRecord(
                id: uniqueID("session"), userID: credential.userID, firstFactorProvider: "password", authenticatedAt: time,
                secondFactorEnrollmentID: factor.id, lastUsedAt: time, expiresAt: 5_000)
            let completion = try await store.completeSignIn(
                credential: credential, phoneVerificationID: id, codeDigests: digests, maximumAttempts: 3, at: time, session: session,
                maximumSessionsPerUser: 10)
            return (completion, session)
        }
        let other = pendingSignIn(of: user)
        try checkEqual(try await complete(credential: other, digests: [record.codeDigest]).0, .verificationNotFound, "another sign-in's code")
        try checkEqual(try await complete(uniqueID("verification"), digests: [record.codeDigest]).0, .verificationNotFound, "an unknown verification")
        try checkEqual(try await complete(digests: [digest(9)]).0, .codeRejected, "a wrong code")
        try checkEqual(try await store.phoneVerification(id: record.id)?.failedAttempts, 1, "the wrong code counted")
        _ = try await store.recordFailure(key: factor.id, at: 240, limit: 1, lockout: 20)
        try checkEqual(try await complete(digests: [record.codeDigest]).0, .locked(until: 260), "a locked factor")
        let (completion, session) = try await complete(digests: [record.codeDigest], at: 270)
        try checkEqual(completion, .completed, "the right code")
        try checkEqual(try await store.session(id: session.id), session, "the session of the sign-in")
        try checkEqual(try await store.isPendingSignInSpent(credential), true, "the credential after the sign-in")
        try checkEqual(try await store.phoneVerification(id: record.id), nil, "the verification after the sign-in")
        try checkEqual(try await store.failureCounter(key: factor.id), .zero, "the factor's failures after the sign-in")
        try checkEqual(try await complete(digests: [record.codeDigest], at: 271).0, .credentialNotFound, "the same code again")

        let third = pendingSignIn(of: user)
        let late = verification(.signIn, user: user, enrollmentID: factor.id, credentialID: third.id, expiresAt: 300)
        try await store.insertPhoneVerification(late)
        try checkEqual(try await complete(late.id, credential: third, digests: [late.codeDigest], at: 301).0, .verificationExpired, "an expired code")
        try checkEqual(try await store.isPendingSignInSpent(third), false, "the credential after an expired code")
        let gone = verification(.signIn, user: user, enrollmentID: factor.id, credentialID: third.id)
        try await store.insertPhoneVerification(gone)
        try checkEqual(try await store.removePhoneFactor(id: factor.id, userID: user), factor, "removing the phone factor")
        try checkEqual(try await complete(gone.id, credential: third, digests: [gone.codeDigest]).0, .factorNotFound, "a code of a removed factor")
    }

    static func concurrentPhoneSignIn(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let factor = try await enrollPhone(store, user: user)
        let credential = pendingSignIn(of: user)
        let record = verification(.signIn, user: user, enrollmentID: factor.id, credentialID: credential.id)
        try await store.insertPhoneVerification(record)
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let session = SessionRecord(
                        id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 250,
                        secondFactorEnrollmentID: factor.id, lastUsedAt: 250, expiresAt: 5_000)
                    return try await store.completeSignIn(
                        credential: credential, phoneVerificationID: record.id, codeDigests: [record.codeDigest], maximumAttempts: 3,
                        at: 250, session: session, maximumSessionsPerUser: 100) == .completed
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(winners, 1, "completions with one verification among 50 concurrent ones")
        try checkEqual(try await store.removeSessions(userID: user, except: nil), 1, "sessions stored by them")
    }

    static func phoneFactorsAndLimit(_ store: any AuthStore) async throws {
        let totp = try await enrolledFactor(in: store, step: nil)
        let user = totp.userID
        let first = try await enrollPhone(store, user: user, number: "+12015550123", at: 300)
        let second = try await enrollPhone(store, user: user, number: "+4930123456", at: 301)
        try checkEqual(try await store.phoneFactors(userID: user), [first, second], "the phone factors, oldest first")
        try checkEqual(try await store.phoneFactor(id: second.id), second, "a phone factor by id")
        try checkEqual(try await store.phoneFactors(userID: uniqueID("user")), [], "the phone factors of a user without any")
        try checkEqual(
            try await store.signInFactors(userID: user), SignInFactors(totp: [totp], phone: [first, second]),
            "both kinds of factors starting a sign-in")
        let phoneOnly = uniqueID("user")
        let only = try await enrollPhone(store, user: phoneOnly)
        try checkEqual(try await store.signInFactors(userID: phoneOnly), SignInFactors(totp: [], phone: [only]), "a user with phone factors only")

        let pending = try pending(user: user)
        try await store.insertPendingEnrollment(pending)
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: pending.id, factor: factor(from: pending, at: 5, step: nil), maximumFactorCount: 3),
            .factorLimitReached, "a TOTP factor beyond a limit reached with phone factors")
        let third = verification(.enrollment, user: user, number: "+442079460958")
        try await store.insertPhoneVerification(third)
        try checkEqual(
            try await store.finalizePhoneEnrollment(
                verificationID: third.id, userID: user, codeDigests: [third.codeDigest], at: 302, maximumAttempts: 5, factorID: uniqueID("phone"),
                displayName: nil, maximumFactorCount: 3), .factorLimitReached, "a phone factor beyond the limit")
        try checkEqual(try await store.removePhoneFactor(id: first.id, userID: uniqueID("user")), nil, "removing another user's phone factor")
        try checkEqual(try await store.removePhoneFactor(id: first.id, userID: user), first, "removing a phone factor")
        try checkEqual(try await store.phoneFactor(id: first.id), nil, "a removed phone factor")
        try checkEqual(try await store.phoneFactors(userID: user), [second], "the phone factors after a removal")
    }

    // MARK: Quotas

    static func quotas(_ store: any AuthStore) async throws {
        // Three per hour: a burst of three, then one more every 1,200 seconds.
        let key = uniqueID("number")
        for (time, remaining) in [(7_200, 2), (7_201, 1), (7_202, 0)] as [(Int64, Int)] {
            try checkEqual(
                try await store.consumeQuota(key: key, window: 3_600, limit: 3, at: time), .allowed(remaining: remaining), "a use within the limit")
        }
        try checkEqual(try await store.consumeQuota(key: key, window: 3_600, limit: 3, at: 7_300), .exceeded(until: 8_400), "a use past the limit")
        try checkEqual(try await store.consumeQuota(key: key, window: 3_600, limit: 3, at: 8_399), .exceeded(until: 8_400), "just before room")
        try checkEqual(
            try await store.consumeQuota(key: uniqueID("number"), window: 3_600, limit: 3, at: 7_300), .allowed(remaining: 2), "another key")
        try checkEqual(
            try await store.consumeQuota(key: key, window: 3_600, limit: 3, at: 8_400), .allowed(remaining: 0),
            "one use drained a third of the window on")
        try checkEqual(try await store.consumeQuota(key: key, window: 3_600, limit: 3, at: 8_401), .exceeded(until: 9_600), "and only one")

        let edge = uniqueID("number")
        for remaining in [2, 1, 0] {
            try checkEqual(
                try await store.consumeQuota(key: edge, window: 3_600, limit: 3, at: 10_799), .allowed(remaining: remaining), "a burst")
        }
        try checkEqual(
            try await store.consumeQuota(key: edge, window: 3_600, limit: 3, at: 10_800), .exceeded(until: 11_999),
            "no second burst at a clock hour's edge")
        try checkEqual(
            try await store.consumeQuota(key: edge, window: 3_600, limit: 3, at: 14_399), .allowed(remaining: 2), "a window after the burst")
        try checkEqual(
            try await store.consumeQuota(key: uniqueID("number"), window: 3_600, limit: 0, at: 100), .exceeded(until: 3_700), "a limit of zero")

        let purged = uniqueID("number")
        try checkEqual(try await store.consumeQuota(key: purged, window: 3_600, limit: 1, at: 100), .allowed(remaining: 0), "the only use")
        try await store.purgeExpired(before: 3_699, failuresCountedBefore: 0)
        try checkEqual(
            try await store.consumeQuota(key: purged, window: 3_600, limit: 1, at: 200), .exceeded(until: 3_700), "a bucket purging kept")
        try await store.purgeExpired(before: 3_700, failuresCountedBefore: 0)
        try checkEqual(
            try await store.consumeQuota(key: purged, window: 3_600, limit: 1, at: 200), .allowed(remaining: 0), "a drained bucket purging removed")
    }

    static func concurrentQuota(_ store: any AuthStore) async throws {
        let key = uniqueID("number")
        let allowed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    if case .allowed = try await store.consumeQuota(key: key, window: 86_400, limit: 7, at: 1_000) { return true }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try checkEqual(allowed, 7, "uses allowed among 30 concurrent ones with a limit of 7")
        // A day that 7 does not divide: the bucket still holds 7, and drains one every 12,342.86 s.
        try checkEqual(
            try await store.consumeQuota(key: key, window: 86_400, limit: 7, at: 1_000), .exceeded(until: 13_343), "the use after the burst")
    }

    // MARK: Housekeeping

    static func purgeExpired(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        var expired = try pending(user: user)
        expired.deadline = 999
        var onTime = try pending(user: user)
        onTime.deadline = 1_000
        try await store.insertPendingEnrollment(expired)
        try await store.insertPendingEnrollment(onTime)
        let oldCredential = PendingSignInRecord(
            id: uniqueID("credential"), userID: user, firstFactorProvider: "password", createdAt: 0, expiresAt: 999)
        let liveCredential = PendingSignInRecord(
            id: uniqueID("credential"), userID: user, firstFactorProvider: "password", createdAt: 0, expiresAt: 1_000)
        try checkEqual(try await store.spendPendingSignIn(oldCredential), true, "spending a pending sign-in that expires at 999")
        try checkEqual(try await store.spendPendingSignIn(liveCredential), true, "spending a pending sign-in that expires at 1000")
        let endedLock = uniqueID("factor")
        let activeLock = uniqueID("factor")
        let counting = uniqueID("factor")
        _ = try await store.recordFailure(key: endedLock, at: 0, limit: 1, lockout: 10)
        _ = try await store.recordFailure(key: activeLock, at: 0, limit: 1, lockout: 5_000)
        _ = try await store.recordFailure(key: counting, at: 0, limit: 5, lockout: 10)
        let oldAccount = uniqueID("account")
        let liveAccount = uniqueID("account")
        try await store.recordSignInSource("192.0.2.1", accountID: oldAccount, until: 999)
        try await store.recordSignInSource("192.0.2.1", accountID: liveAccount, until: 1_000)
        let endedSession = SessionRecord(
            id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 0, secondFactorEnrollmentID: nil, lastUsedAt: 0,
            expiresAt: 999)
        let liveSession = SessionRecord(
            id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 0, secondFactorEnrollmentID: nil, lastUsedAt: 0,
            expiresAt: 1_000)
        try await store.insertSession(endedSession, maximumPerUser: 10)
        try await store.insertSession(liveSession, maximumPerUser: 10)

        try await store.purgeExpired(before: 1_000, failuresCountedBefore: 0)
        try checkEqual(try await store.pendingEnrollment(id: expired.id), nil, "a pending enrollment past its deadline")
        try checkEqual(try await store.pendingEnrollment(id: onTime.id), onTime, "a pending enrollment at its deadline")
        try checkEqual(try await store.isPendingSignInSpent(oldCredential), false, "a spent pending sign-in past its expiry")
        try checkEqual(try await store.isPendingSignInSpent(liveCredential), true, "a spent pending sign-in at its expiry")
        try checkEqual(try await store.failureCounter(key: endedLock), .zero, "a counter whose lock ended")
        try checkEqual(try await store.failureCounter(key: activeLock).lockedUntil, 5_000, "a counter still locked")
        try checkEqual(try await store.failureCounter(key: counting).consecutiveFailures, 1, "a counter with failures")
        try checkEqual(try await store.session(id: endedSession.id), nil, "an expired session")
        try checkEqual(try await store.session(id: liveSession.id), liveSession, "a session at its expiry")
        try checkEqual(try await store.isKnownSignInSource("192.0.2.1", accountID: oldAccount, at: 0), false, "a sign-in source past its time")
        try checkEqual(try await store.isKnownSignInSource("192.0.2.1", accountID: liveAccount, at: 0), true, "a sign-in source at its time")
        try checkEqual(try await store.removeSessions(userID: user, except: nil), 1, "the user's sessions left after purging")
    }

    // MARK: Fixtures

    static func pending(
        user: String,
        algorithm: OTPAlgorithm = .sha1,
        byteCount: Int = 20,
        digits: Int = 6,
        period: Int64 = 30
    ) throws -> PendingEnrollmentRecord {
        PendingEnrollmentRecord(
            id: uniqueID("pending"),
            userID: user,
            secret: try OTPSecret.random(byteCount: byteCount),
            algorithm: algorithm,
            digits: digits,
            period: period,
            createdAt: 1_700_000_000,
            deadline: 1_700_000_300
        )
    }

    static func factor(from record: PendingEnrollmentRecord, at time: Int64, step: UInt64?) -> FactorRecord {
        FactorRecord(
            id: uniqueID("factor"),
            userID: record.userID,
            factorID: "totp",
            displayName: "Authenticator",
            enrolledAt: time,
            secret: record.secret,
            algorithm: record.algorithm,
            digits: record.digits,
            period: record.period,
            lastAcceptedStep: step
        )
    }

    static func enrolledFactor(in store: any AuthStore, user: String = uniqueID("user"), step: UInt64?) async throws -> FactorRecord {
        let record = try pending(user: user)
        try await store.insertPendingEnrollment(record)
        let enrolled = factor(from: record, at: 0, step: step)
        try checkEqual(
            try await store.finalizeEnrollment(pendingID: record.id, factor: enrolled, maximumFactorCount: 5), .enrolled, "enrolling a fixture factor"
        )
        return enrolled
    }

    /// A new pending sign-in of `userID`, created at 100 and expiring at 400 (nothing is stored
    /// until it is spent).
    static func pendingSignIn(of userID: String) -> PendingSignInRecord {
        PendingSignInRecord(id: uniqueID("credential"), userID: userID, firstFactorProvider: "password", createdAt: 100, expiresAt: 400)
    }

    static func signInSession(of factor: FactorRecord) -> SessionRecord {
        SessionRecord(
            id: uniqueID("session"), userID: factor.userID, firstFactorProvider: "password", authenticatedAt: 200,
            secondFactorEnrollmentID: factor.id, lastUsedAt: 200, expiresAt: 5_000
        )
    }

    static func uniqueID(_ prefix: String) -> String {
        "\(prefix)-\(UInt64.random(in: 0...UInt64.max))"
    }
}

/// One named check of ``AuthStoreConformance``.
public struct AuthStoreConformanceCase: Sendable, CustomStringConvertible {
    /// What the check establishes.
    public let name: String
    private let body: @Sendable (any AuthStore) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (any AuthStore) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the check on `store`, throwing ``AuthStoreConformanceFailure`` when the store
    /// misbehaves (or whatever the store itself throws).
    public func run(on store: any AuthStore) async throws {
        try await body(store)
    }

    public var description: String { name }
}

/// A store behaved differently from what ``AuthStoreConformance`` expects.
public struct AuthStoreConformanceFailure: Error, CustomStringConvertible {
    /// What was checked and what was found.
    public let message: String
    /// Where the check is.
    public let file: StaticString
    /// The line of the check.
    public let line: UInt

    public var description: String { "\(message) (\(file):\(line))" }
}

func check(_ condition: Bool, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) throws {
    guard condition else { throw AuthStoreConformanceFailure(message: "check failed: \(what())", file: file, line: line) }
}

func checkEqual<Value: Equatable>(
    _ actual: Value, _ expected: Value, _ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line
) throws {
    guard actual == expected else {
        throw AuthStoreConformanceFailure(message: "\(what()): expected \(expected), got \(actual)", file: file, line: line)
    }
}
