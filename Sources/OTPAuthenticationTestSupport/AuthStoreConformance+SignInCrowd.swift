import OTPAuthentication

// Stores may decide concurrent sign-ins together (the durable ones batch them into a few
// statements); every outcome must still be the one each would have had alone.
extension AuthStoreConformance {
    private enum Kind: CaseIterable {
        case fresh, replayed, reused, expired, locked, atCap, noFactors
    }

    private struct Outcome: Sendable {
        let started: SignInFactors
        let completions: [SignInCompletion]
    }

    static func signInCrowd(_ store: any AuthStore) async throws {
        let perKind = 8
        var users: [(kind: Kind, factor: FactorRecord, earlier: [SessionRecord])] = []
        for kind in Kind.allCases {
            for _ in 0..<perKind {
                let factor = try await enrolledFactor(in: store, step: 5)
                var earlier: [SessionRecord] = []
                switch kind {
                case .locked:
                    _ = try await store.recordFailure(key: factor.id, at: 150, limit: 1, lockout: 3_600)
                case .atCap:
                    for _ in 0..<3 {
                        let session = signInSession(of: factor)
                        try await store.insertSession(session, maximumPerUser: 10)
                        earlier.append(session)
                    }
                case .noFactors:
                    _ = try await store.removeFactor(id: factor.id, userID: factor.userID)
                default:
                    break
                }
                users.append((kind, factor, earlier))
            }
        }
        let sessions = users.map { user in (0..<2).map { _ in signInSession(of: user.factor) } }
        let credentials = users.map { user in
            (0..<2).map { _ in
                PendingSignInRecord(
                    id: uniqueID("credential"), userID: user.factor.userID, firstFactorProvider: "password", createdAt: 100,
                    expiresAt: user.kind == .expired ? 150 : 400)
            }
        }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            for (index, user) in users.enumerated() {
                group.addTask {
                    let started = try await store.signInFactors(userID: user.factor.userID)
                    guard !started.isEmpty else { return (index, Outcome(started: started, completions: [])) }
                    let attempts = user.kind == .replayed || user.kind == .reused ? 2 : 1
                    let completions = try await withThrowingTaskGroup(of: SignInCompletion.self) { attemptGroup in
                        for attempt in 0..<attempts {
                            attemptGroup.addTask {
                                // A reused credential goes twice, with two steps; a replayed step with two credentials.
                                try await store.completeSignIn(
                                    credential: credentials[index][user.kind == .reused ? 0 : attempt], factorID: user.factor.id,
                                    step: user.kind == .reused ? 6 + UInt64(attempt) : 6, at: 200,
                                    session: sessions[index][attempt], maximumSessionsPerUser: user.kind == .atCap ? 2 : 10)
                            }
                        }
                        return try await attemptGroup.reduce(into: []) { $0.append($1) }
                    }
                    return (index, Outcome(started: started, completions: completions))
                }
            }
            return try await group.reduce(into: [Int: Outcome]()) { $0[$1.0] = $1.1 }
        }

        for (index, user) in users.enumerated() {
            let what = "a \(user.kind) sign-in in a crowd"
            guard let outcome = outcomes[index] else {
                throw AuthStoreConformanceFailure(message: "no outcome of \(what)", file: #filePath, line: #line)
            }
            let factorsExpected = user.kind == .noFactors ? SignInFactors(totp: [], phone: []) : SignInFactors(totp: [user.factor], phone: [])
            try checkEqual(outcome.started, factorsExpected, "the factors listed by \(what)")
            let storedSessions = try await sessions[index].asyncFilter { try await store.session(id: $0.id) != nil }
            switch user.kind {
            case .fresh, .atCap:
                try checkEqual(outcome.completions, [.completed], "the completion of \(what)")
                try checkEqual(try await store.isPendingSignInSpent(credentials[index][0]), true, "the credential of \(what)")
                try checkEqual(try await store.factor(id: user.factor.id)?.lastAcceptedStep, 6, "the step of \(what)")
                try checkEqual(storedSessions.map(\.id), [sessions[index][0].id], "the sessions of \(what)")
                if user.kind == .atCap {
                    let kept = try await user.earlier.asyncFilter { try await store.session(id: $0.id) != nil }
                    try checkEqual(kept.map(\.id), [user.earlier[2].id], "the earlier sessions left by \(what) with a cap of two")
                }
            case .replayed:
                try checkEqual(
                    outcome.completions.sorted { "\($0)" < "\($1)" }, [.completed, .stepRejected(lastAcceptedStep: 6)],
                    "the two completions with one step of \(what)")
                try checkEqual(storedSessions.count, 1, "the sessions of \(what)")
            case .reused:
                try checkEqual(
                    outcome.completions.sorted { "\($0)" < "\($1)" }, [.completed, .credentialNotFound],
                    "the two completions with one credential of \(what)")
                try checkEqual(storedSessions.count, 1, "the sessions of \(what)")
                try checkEqual(try await store.isPendingSignInSpent(credentials[index][0]), true, "the credential of \(what)")
            case .expired:
                try checkEqual(outcome.completions, [.credentialExpired(expiresAt: 150)], "the completion of \(what)")
                try checkEqual(try await store.isPendingSignInSpent(credentials[index][0]), false, "the credential of \(what)")
                try checkEqual(try await store.factor(id: user.factor.id)?.lastAcceptedStep, 5, "the step of \(what)")
                try checkEqual(storedSessions.count, 0, "the sessions of \(what)")
            case .locked:
                try checkEqual(outcome.completions, [.locked(until: 3_750)], "the completion of \(what)")
                try checkEqual(try await store.isPendingSignInSpent(credentials[index][0]), false, "the credential of \(what)")
                try checkEqual(try await store.factor(id: user.factor.id)?.lastAcceptedStep, 5, "the step of \(what)")
                try checkEqual(storedSessions.count, 0, "the sessions of \(what)")
            case .noFactors:
                try checkEqual(outcome.completions, [], "the completions of \(what), which has no second step")
            }
        }
    }

    /// The second steps of many sign-ins at once, of users with and without an account,
    /// identities, a phone, of spent credentials and of a user with nothing: each reads the
    /// context it reads alone.
    static func signInContextCrowd(_ store: any AuthStore) async throws {
        var expected: [(credential: PendingSignInRecord, context: PendingSignInContext?)] = []
        for index in 0..<12 {
            var totp = [try await enrolledFactor(in: store, step: 5)]
            let user = totp[0].userID
            if index % 5 == 4 {
                // Both enrolled at the same time: listed by id.
                totp.append(try await enrolledFactor(in: store, user: user, step: nil))
                totp.sort { $0.id < $1.id }
            }
            var account: AccountRecord?
            var identities: [ProviderIdentity] = []
            if index % 3 != 0 {
                let created = AccountRecord(id: user, email: "\(uniqueID("user"))@example.com", isEmailVerified: index % 2 == 0, createdAt: 1)
                let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"), email: created.email)
                try checkEqual(try await store.insertAccount(created, identity: google), .inserted, "an account in a crowd")
                account = created
                identities = [google]
                if index % 3 == 2 {
                    let github = ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub"))
                    try checkEqual(try await store.linkProviderIdentity(github, accountID: user), .linked, "a second identity in a crowd")
                    identities.insert(github, at: 0)
                }
            }
            let phone = index % 2 == 0 ? [try await enrollPhone(store, user: user, at: 300)] : []
            let context = PendingSignInContext(
                credential: pendingSignIn(of: user), account: account, identities: identities, factors: SignInFactors(totp: totp, phone: phone))
            expected.append((context.credential, context))
            if index % 4 == 1 {
                let spent = pendingSignIn(of: user)
                try checkEqual(try await store.spendPendingSignIn(spent), true, "spending a pending sign-in of a crowd")
                expected.append((spent, nil))
            }
        }
        let nobody = pendingSignIn(of: uniqueID("user"))
        expected.append((nobody, PendingSignInContext(credential: nobody, account: nil, identities: [], factors: SignInFactors(totp: [], phone: []))))
        let read = try await withThrowingTaskGroup(of: (Int, PendingSignInContext?).self) { group in
            for (index, request) in expected.enumerated() {
                group.addTask { (index, try await store.pendingSignInContext(request.credential)) }
            }
            return try await group.reduce(into: [Int: PendingSignInContext?]()) { $0[$1.0] = $1.1 }
        }
        for (index, request) in expected.enumerated() {
            try checkEqual(read[index] ?? nil, request.context, "the context of pending sign-in \(index) of a crowd")
        }
    }

    /// Several sign-ins of one user at once, each with a factor of its own, more of them than the
    /// user's session cap: however a store groups them, the user ends with the cap's worth of
    /// sessions, all of them new, as the same sign-ins one after the other leave.
    static func signInsPastSessionCap(_ store: any AuthStore) async throws {
        for (cap, signIns) in [(3, 4), (1, 3), (4, 2)] {
            let user = uniqueID("user")
            var factors: [FactorRecord] = []
            for _ in 0..<signIns {
                let record = try pending(user: user)
                try await store.insertPendingEnrollment(record)
                let enrolled = factor(from: record, at: 0, step: 5)
                try checkEqual(
                    try await store.finalizeEnrollment(pendingID: record.id, factor: enrolled, maximumFactorCount: 5), .enrolled,
                    "enrolling one of \(signIns) factors of a user")
                factors.append(enrolled)
            }
            var earlier: [SessionRecord] = []
            for _ in 0..<2 {
                let session = signInSession(of: factors[0])
                try await store.insertSession(session, maximumPerUser: 10)
                earlier.append(session)
            }
            let sessions = factors.map(signInSession(of:))
            let completions = try await withThrowingTaskGroup(of: SignInCompletion.self) { group in
                for (factor, session) in zip(factors, sessions) {
                    group.addTask {
                        try await store.completeSignIn(
                            credential: pendingSignIn(of: user), factorID: factor.id, step: 6, at: 200, session: session,
                            maximumSessionsPerUser: cap)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let what = "\(signIns) concurrent sign-ins of a user with 2 sessions and a cap of \(cap)"
            try checkEqual(completions, Array(repeating: .completed, count: signIns), "the completions of \(what)")
            let keptNew = try await sessions.asyncFilter { try await store.session(id: $0.id) != nil }
            let keptEarlier = try await earlier.asyncFilter { try await store.session(id: $0.id) != nil }
            try checkEqual(keptNew.count, min(cap, signIns), "the new sessions kept after \(what)")
            try checkEqual(
                keptEarlier.map(\.id), Array(earlier.suffix(max(0, cap - signIns)).map(\.id)), "the earlier sessions kept after \(what)")
        }
    }
}

extension Array where Element: Sendable {
    fileprivate func asyncFilter(_ isIncluded: (Element) async throws -> Bool) async rethrows -> [Element] {
        var kept: [Element] = []
        for element in self where try await isIncluded(element) { kept.append(element) }
        return kept
    }
}
