import OTPAuthentication

// The audit log: an operation writes its pending events in its own write, exactly when it makes
// its change; sign-ins decided in sets write one event per completion or counted failure; the
// log is read newest first through filters and pages, and purged by age.
extension AuthStoreConformance {
    static let auditCases: [AuthStoreConformanceCase] = [
        .init("an operation writes its pending audit events exactly when it makes its change, and none without", auditedOperations),
        .init("sign-in completions and counted wrong codes write their events; refusals write none", auditedSignIns),
        .init("a crowd of concurrent sign-ins and wrong codes writes one event for each that changed something", auditedSignInCrowd),
        .init("audit events read back newest first, filtered by user, kind, actor and time, page by page, and purged by age", auditLog),
    ]

    static func auditEvent(_ kind: AuditEventKind, user: String?, at time: Int64 = 200, reason: String? = nil) -> AuditEvent {
        AuditEvent(
            time: time, kind: kind, userID: user, actor: user.map(AuditActor.user) ?? .anonymous, factorKind: .totp, factorID: "f-\(kind.rawValue)",
            provider: "password", clientAddress: "203.0.113.7", userAgent: "Conformance/1.0", reason: reason)
    }

    /// `user`'s events, oldest first.
    static func auditEvents(of user: String, in store: any AuthStore) async throws -> [AuditEvent] {
        try await store.auditEvents(AuditQuery(userID: user, limit: AuditQuery.maximumLimit)).reversed()
    }

    /// Runs `operation` with `events` pending and returns its outcome.
    static func audited<Value>(_ events: AuditEvent..., operation: () async throws -> Value) async throws -> Value {
        try await AuditTrail.recording(events) { try await operation() }
    }

    static func auditedOperations(_ store: any AuthStore) async throws {
        let user = uniqueID("audited")
        func kinds() async throws -> [AuditEventKind] { try await auditEvents(of: user, in: store).map(\.kind) }
        let email = "\(user)@example.com"
        let created = auditEvent(.accountCreated, user: user)
        try checkEqual(
            try await audited(created) { try await store.insertAccount(AccountRecord(id: user, email: email, createdAt: 1)) }, .inserted,
            "an account inserted with an event pending")
        let recorded = try await auditEvents(of: user, in: store)
        try checkEqual(recorded.count, 1, "events after the insertion")
        var expected = created
        expected.sequence = recorded.first?.sequence ?? 0
        try checkEqual(recorded.first, expected, "the event round-trips every field")
        try check(expected.sequence > 0, "a written event has a sequence number")
        try checkEqual(
            try await audited(auditEvent(.accountCreated, user: user)) {
                try await store.insertAccount(AccountRecord(id: user, email: "\(uniqueID("x"))@example.com", createdAt: 1))
            }, .idAlreadyInUse, "a refused insertion")
        try checkEqual(try await kinds(), [.accountCreated], "a refused insertion writes no event")
        _ = try await store.updateAccount(id: user, changes: AccountChanges(isDisabled: true))
        try checkEqual(try await kinds(), [.accountCreated], "an operation without an event pending writes none")

        let update = try await audited(auditEvent(.accountEnabled, user: user), auditEvent(.passwordChanged, user: user)) {
            try await store.updateAccount(id: user, changes: AccountChanges(passwordHash: "$scrypt$x", isDisabled: false))
        }
        guard case .updated = update else { throw failure("an update with two events: \(update)") }
        try checkEqual(try await kinds(), [.accountCreated, .accountEnabled, .passwordChanged], "an update writes each of its events, in order")
        try checkEqual(
            try await audited(auditEvent(.accountDisabled, user: user)) {
                try await store.setAccountDisabled(id: uniqueID("nobody"), disabled: true)
            },
            false, "disabling no account")

        let factor = try await audited(auditEvent(.factorEnrolled, user: user)) { try await enrolledFactor(in: store, user: user, step: nil) }
        try checkEqual(
            try await audited(auditEvent(.factorRemoved, user: user)) { try await store.removeFactor(id: uniqueID("factor"), userID: user) }, nil,
            "removing a factor the user does not have")
        try checkEqual(
            try await audited(auditEvent(.factorRemoved, user: user)) { try await store.removeFactor(id: factor.id, userID: user) }?.id, factor.id,
            "removing the factor")
        try await audited(auditEvent(.recoveryCodesGenerated, user: user)) {
            try await store.replaceRecoveryCodes(userID: user, digests: [digest(7)])
        }
        try checkEqual(
            try await audited(auditEvent(.sessionsRevoked, user: user)) { try await store.removeSessions(userID: user, except: nil) }, 0,
            "ending the sessions of a user without any")
        let session = SessionRecord(
            id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 200, secondFactorEnrollmentID: nil,
            lastUsedAt: 200, expiresAt: 5_000)
        _ = try await audited(auditEvent(.signedIn, user: user)) { try await store.insertSession(session, maximumPerUser: 10) }
        try await audited(auditEvent(.signedOut, user: user)) { try await store.removeSession(id: session.id) }
        try await audited(auditEvent(.signedOut, user: user)) { try await store.removeSession(id: session.id) }
        _ = try await audited(auditEvent(.signInFailed, user: user)) { try await store.recordFailure(key: email, at: 200, limit: 5, lockout: 60) }
        try checkEqual(
            try await audited(auditEvent(.providerUnlinked, user: user)) { try await store.unlinkProvider("google.com", accountID: user) }, false,
            "unlinking a provider the account does not have")
        let passkey = passkeyRecord(user)
        try checkEqual(
            try await audited(auditEvent(.passkeyAdded, user: user)) { try await store.insertPasskey(passkey, maximumPerUser: 10) }, .inserted,
            "adding a passkey")
        try checkEqual(
            try await audited(auditEvent(.passkeyAdded, user: user)) { try await store.insertPasskey(passkey, maximumPerUser: 10) },
            .credentialInUse, "adding it again")
        try checkEqual(
            try await audited(auditEvent(.passkeyRemoved, user: user)) {
                try await store.removePasskey(credentialID: passkey.credentialID, userID: user)
            }, true, "removing the passkey")
        try checkEqual(
            try await audited(auditEvent(.accountDeleted, user: user)) { try await store.deleteAccount(id: user) }, true, "deleting the account")
        try checkEqual(
            try await kinds(),
            [
                .accountCreated, .accountEnabled, .passwordChanged, .factorEnrolled, .factorRemoved, .recoveryCodesGenerated, .signedIn, .signedOut,
                .signInFailed, .passkeyAdded, .passkeyRemoved, .accountDeleted,
            ], "the events of the changes made, each once, and none of the refusals; deleting the account keeps them")
    }

    static func auditedSignIns(_ store: any AuthStore) async throws {
        let factor = try await enrolledFactor(in: store, step: 5)
        let user = factor.userID
        func kinds() async throws -> [AuditEventKind] { try await auditEvents(of: user, in: store).map(\.kind) }
        let credential = pendingSignIn(of: user)
        try checkEqual(
            try await audited(auditEvent(.signInFailed, user: user)) {
                try await store.recordSignInFailure(credential: credential, failureKey: factor.id, at: 200, limit: 5, lockout: 60)
            }, .counted(FailureCounter(consecutiveFailures: 1, lockedUntil: nil)), "a wrong code")
        try checkEqual(
            try await audited(auditEvent(.signedIn, user: user)) {
                try await store.completeSignIn(
                    credential: credential, factorID: factor.id, step: 5, at: 200, session: signInSession(of: factor), maximumSessionsPerUser: 10)
            }, .stepRejected(lastAcceptedStep: 5), "a completion with a step accepted already")
        try checkEqual(
            try await audited(auditEvent(.signedIn, user: user)) {
                try await store.completeSignIn(
                    credential: credential, factorID: factor.id, step: 6, at: 200, session: signInSession(of: factor), maximumSessionsPerUser: 10)
            }, .completed, "the completion")
        try checkEqual(
            try await audited(auditEvent(.signInFailed, user: user)) {
                try await store.recordSignInFailure(credential: credential, failureKey: factor.id, at: 201, limit: 5, lockout: 60)
            }, .credentialNotFound, "a wrong code with the spent credential")
        try checkEqual(try await kinds(), [.signInFailed, .signedIn], "a counted failure and a completion, and neither refusal")

        let codes = [digest(3), digest(4)]
        try await store.replaceRecoveryCodes(userID: user, digests: codes)
        let second = pendingSignIn(of: user)
        let (rejected, _) = try await audited(auditEvent(.recoveryCodeUsed, user: user)) {
            try await completeWithCode(store, credential: second, digests: [digest(9)])
        }
        try checkEqual(rejected, .codeRejected, "a wrong recovery code")
        let (used, _) = try await audited(auditEvent(.recoveryCodeUsed, user: user)) {
            try await completeWithCode(store, credential: second, digests: [codes[0]])
        }
        try checkEqual(used, .completed, "a recovery code")
        try checkEqual(try await kinds(), [.signInFailed, .signedIn, .recoveryCodeUsed], "the recovery code's sign-in, and not the wrong one")
    }

    static func auditedSignInCrowd(_ store: any AuthStore) async throws {
        var factors: [FactorRecord] = []
        for _ in 0..<24 { factors.append(try await enrolledFactor(in: store, step: 5)) }
        // Each user: one completion with a fresh step, one replaying the accepted step, one wrong code
        // and one wrong code with a credential spent already, all at once.
        let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for factor in factors {
                let user = factor.userID
                let fresh = pendingSignIn(of: user)
                let replay = pendingSignIn(of: user)
                let spent = pendingSignIn(of: user)
                _ = try await store.spendPendingSignIn(spent)
                group.addTask {
                    let outcome = try await audited(auditEvent(.signedIn, user: user)) {
                        try await store.completeSignIn(
                            credential: fresh, factorID: factor.id, step: 6, at: 200, session: signInSession(of: factor), maximumSessionsPerUser: 10)
                    }
                    return (user, outcome == .completed)
                }
                group.addTask {
                    let outcome = try await audited(auditEvent(.signedIn, user: user)) {
                        try await store.completeSignIn(
                            credential: replay, factorID: factor.id, step: 5, at: 200, session: signInSession(of: factor), maximumSessionsPerUser: 10)
                    }
                    return (user, outcome == .completed)
                }
                group.addTask {
                    let outcome = try await audited(auditEvent(.signInFailed, user: user, reason: "wrong code")) {
                        try await store.recordSignInFailure(credential: replay, failureKey: factor.id, at: 200, limit: 100, lockout: 60)
                    }
                    if case .counted = outcome { return (user, true) }
                    return (user, false)
                }
                group.addTask {
                    let outcome = try await audited(auditEvent(.signInFailed, user: user)) {
                        try await store.recordSignInFailure(credential: spent, failureKey: factor.id, at: 200, limit: 100, lockout: 60)
                    }
                    return (user, outcome != .credentialNotFound)
                }
            }
            return try await group.reduce(into: [String: Int]()) { counts, outcome in counts[outcome.0, default: 0] += outcome.1 ? 1 : 0 }
        }
        for factor in factors {
            let events = try await auditEvents(of: factor.userID, in: store)
            try checkEqual(events.count, outcomes[factor.userID] ?? 0, "events of a user whose operations changed something")
            try checkEqual(events.filter { $0.kind == .signedIn }.count, 1, "sign-ins recorded of a user with one fresh step")
            try checkEqual(events.filter { $0.reason == "wrong code" }.count, 1, "wrong codes recorded with the unspent credential")
        }
    }

    static func auditLog(_ store: any AuthStore) async throws {
        let ada = uniqueID("ada")
        let bob = uniqueID("bob")
        // Times after any other case's, as events are written in time order: a purge goes up to the
        // first event it keeps (on a shared store, every other case's events before these go too).
        let base: Int64 = 4_000_000_000
        var written: [AuditEvent] = []
        for (offset, (kind, user)) in [
            (AuditEventKind.accountCreated, ada), (.signedIn, ada), (.signInFailed, bob), (.factorEnrolled, ada), (.signedIn, bob),
            (.signedIn, ada),
        ].enumerated() {
            written.append(try await store.recordAuditEvent(auditEvent(kind, user: user, at: base + Int64(offset) * 1_000)))
        }
        try check(zip(written, written.dropFirst()).allSatisfy { $0.sequence < $1.sequence }, "sequence numbers grow with each event")
        var administrator = auditEvent(.accountDisabled, user: bob, at: base + 5_500, reason: "<script>alert(1)</script>")
        administrator.actor = .administrator("ops@example.com")
        written.append(try await store.recordAuditEvent(administrator))

        try checkEqual(try await auditEvents(of: ada, in: store), written.filter { $0.userID == ada }, "Ada's events, every field")
        try checkEqual(
            try await store.auditEvents(AuditQuery(userID: ada, kinds: [.signedIn])).map(\.sequence), [written[5].sequence, written[1].sequence],
            "Ada's sign-ins, newest first")
        try checkEqual(
            try await store.auditEvents(AuditQuery(userID: bob, kinds: [.signedIn, .signInFailed])).map(\.kind), [.signedIn, .signInFailed],
            "Bob's sign-ins and failures")
        try checkEqual(
            try await store.auditEvents(AuditQuery(actor: .administrator("ops@example.com"), since: base + 5_000)).map(\.sequence),
            [written[6].sequence], "by an administrator since a time")
        try checkEqual(
            try await store.auditEvents(AuditQuery(actor: .administrator("ops@example.com"), since: base + 5_000)).first?.reason,
            "<script>alert(1)</script>", "a reason is kept as written")
        try checkEqual(
            try await store.auditEvents(AuditQuery(userID: ada, since: base + 1_000, until: base + 4_000)).map(\.kind), [.factorEnrolled, .signedIn],
            "within a time range, its end excluded")
        var pages: [[Int64]] = []
        var query = AuditQuery(userID: ada, limit: 2)
        while true {
            let page = try await store.auditEvents(query)
            if page.isEmpty { break }
            pages.append(page.map(\.sequence))
            query.beforeSequence = page.last?.sequence
        }
        try checkEqual(
            pages, [[written[5].sequence, written[3].sequence], [written[1].sequence, written[0].sequence]], "Ada's events two to a page")

        let purged = try await store.purgeAuditEvents(before: base + 3_000)
        try check(purged >= 3, "purging the events before a time: \(purged), at least these three")
        try checkEqual(
            try await auditEvents(of: ada, in: store).map(\.sequence), [written[3].sequence, written[5].sequence], "Ada's events after the purge")
        try checkEqual(try await auditEvents(of: bob, in: store).count, 2, "Bob's events after the purge")
    }

    static func failure(_ message: String, file: StaticString = #filePath, line: UInt = #line) -> AuthStoreConformanceFailure {
        AuthStoreConformanceFailure(message: message, file: file, line: line)
    }
}
