import OTPCore
import OTPAuthentication
import OTPAuthenticationPostgres
import Testing

/// Races between two stores, each with its own pool, as two servers would run them: the database
/// alone decides.
@Suite("Postgres: races across two stores")
struct RaceTests {
    @Test("50 concurrent sign-in completions with one code across two stores: exactly one completes")
    func oneCodeOneSignIn() async throws {
        try await withStore { first, database in
            let second = try await database.open(poolSize: 8)
            defer { Task { await second.close() } }
            let factor = try await enroll(first, userID: "racer")
            let now = TOTP.currentUnixTime()
            let credentials = (0..<50).map { index in
                PendingSignInRecord(
                    id: "credential-\(index)", userID: "racer", firstFactorProvider: "password", createdAt: now, expiresAt: now + 300)
            }
            let step = UInt64(now / 30)
            let outcomes = try await withThrowingTaskGroup(of: SignInCompletion.self) { group in
                for (index, credential) in credentials.enumerated() {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        let session = SessionRecord(
                            id: "session-\(index)", userID: "racer", firstFactorProvider: "password", authenticatedAt: now,
                            secondFactorEnrollmentID: factor.id, lastUsedAt: now, expiresAt: now + 3600)
                        return try await store.completeSignIn(
                            credential: credential, factorID: factor.id, step: step, at: now, session: session, maximumSessionsPerUser: 100)
                    }
                }
                return try await group.reduce(into: [SignInCompletion]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .completed }.count == 1)
            #expect(outcomes.filter { $0 == .stepRejected(lastAcceptedStep: step) }.count == 49)
            let sessions = try await database.query("SELECT id FROM sessions WHERE user_id = 'racer'")
            #expect(sessions.count == 1, "one session, for the one completion")
            let spent = try await database.query("SELECT id FROM spent_sign_ins WHERE id LIKE 'credential-%'")
            #expect(spent.count == 1, "one credential spent: the refused completions changed nothing")
        }
    }

    @Test("50 concurrent completions of one credential with different steps across two stores: exactly one completes")
    func oneCredentialOneSignIn() async throws {
        try await withStore { first, database in
            let second = try await database.open(poolSize: 8)
            defer { Task { await second.close() } }
            let factor = try await enroll(first, userID: "reuser")
            let now = TOTP.currentUnixTime()
            let credential = PendingSignInRecord(
                id: "credential-reused", userID: "reuser", firstFactorProvider: "password", createdAt: now, expiresAt: now + 300)
            let outcomes = try await withThrowingTaskGroup(of: SignInCompletion.self) { group in
                for index in 0..<50 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        let session = SessionRecord(
                            id: "session-reused-\(index)", userID: "reuser", firstFactorProvider: "password", authenticatedAt: now,
                            secondFactorEnrollmentID: factor.id, lastUsedAt: now, expiresAt: now + 3600)
                        return try await store.completeSignIn(
                            credential: credential, factorID: factor.id, step: UInt64(1_000 + index), at: now, session: session,
                            maximumSessionsPerUser: 100)
                    }
                }
                return try await group.reduce(into: [SignInCompletion]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .completed }.count == 1, "\(outcomes)")
            // The others found it spent, or lost to a higher step accepted meanwhile: either way nothing of theirs was written.
            #expect(
                outcomes.allSatisfy { outcome in
                    if case .stepRejected = outcome { true } else { outcome == .completed || outcome == .credentialNotFound }
                }, "\(outcomes)")
            let sessions = try await database.query("SELECT id FROM sessions WHERE user_id = 'reuser'")
            #expect(sessions.count == 1, "one session, for the one completion")
            let spent = try await database.query("SELECT id FROM spent_sign_ins WHERE id = 'credential-reused'")
            #expect(spent.count == 1)
        }
    }

    @Test("60 concurrent wrong codes on one new counter across two stores: each counted once, the lock starts once")
    func wrongCodesCountedOnce() async throws {
        try await withStore { first, database in
            let second = try await database.open(poolSize: 8)
            defer { Task { await second.close() } }
            let now = TOTP.currentUnixTime()
            // A credential each, as an attacker with many first-factor sign-ins would have: only
            // the counter's own lock keeps the counts apart.
            let credentials = (0..<60).map { index in
                PendingSignInRecord(
                    id: "credential-counted-\(index)", userID: "counted", firstFactorProvider: "password", createdAt: now, expiresAt: now + 300)
            }
            // A limit of 50: the fiftieth failure locks, and the ten after it find the lock.
            let outcomes = try await withThrowingTaskGroup(of: SignInFailure.self) { group in
                for (index, credential) in credentials.enumerated() {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await store.recordSignInFailure(
                            credential: credential, failureKey: "factor-counted", at: now, limit: 50, lockout: 300)
                    }
                }
                return try await group.reduce(into: [SignInFailure]()) { $0.append($1) }
            }
            let counted = outcomes.compactMap { if case .counted(let counter) = $0 { counter } else { nil } }
            #expect(counted.count == 50, "\(outcomes)")
            #expect(Set(counted.map(\.consecutiveFailures)) == Set(0..<50), "every count from 1 to 49 once, and the lock")
            #expect(outcomes.filter { $0 == .locked(until: now + 300) }.count == 10)
            #expect(try await first.failureCounter(key: "factor-counted") == FailureCounter(consecutiveFailures: 0, lockedUntil: now + 300))
        }
    }

    @Test("50 concurrent acceptances of one step across two stores: exactly one is accepted")
    func oneStepOneAcceptance() async throws {
        try await withStore { first, database in
            let second = try await database.open(poolSize: 8)
            defer { Task { await second.close() } }
            let factor = try await enroll(first)
            let outcomes = try await withThrowingTaskGroup(of: StepAcceptance.self) { group in
                for index in 0..<50 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await store.recordAcceptedStep(1_000, factorID: factor.id) }
                }
                return try await group.reduce(into: [StepAcceptance]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .accepted }.count == 1)
            #expect(outcomes.filter { $0 == .rejected(lastAcceptedStep: 1_000) }.count == 49)
        }
    }

    @Test("concurrent finalizations for one user across two stores never pass the factor limit")
    func factorLimitAcrossStores() async throws {
        try await withStore { first, database in
            let second = try await database.open(poolSize: 8)
            defer { Task { await second.close() } }
            let now = TOTP.currentUnixTime()
            let outcomes = try await withThrowingTaskGroup(of: EnrollmentFinalization.self) { group in
                for index in 0..<20 {
                    let store = index.isMultiple(of: 2) ? first : second
                    let secret = try OTPSecret.random(for: .sha1)
                    let pending = PendingEnrollmentRecord(
                        id: "pending-\(index)", userID: "limited", secret: secret, algorithm: .sha1, digits: 6, period: 30, createdAt: now,
                        deadline: now + 600)
                    try await store.insertPendingEnrollment(pending)
                    let factor = FactorRecord(
                        id: "factor-\(index)", userID: "limited", factorID: "totp", displayName: nil, enrolledAt: now, secret: secret,
                        algorithm: .sha1, digits: 6, period: 30, lastAcceptedStep: nil)
                    group.addTask { try await store.finalizeEnrollment(pendingID: pending.id, factor: factor, maximumFactorCount: 5) }
                }
                return try await group.reduce(into: [EnrollmentFinalization]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .enrolled }.count == 5)
            #expect(outcomes.filter { $0 == .factorLimitReached }.count == 15)
            #expect(try await first.factors(userID: "limited").count == 5)
        }
    }
}
