import OTPAuthentication

// Wrong second-factor codes: the durable stores count concurrent ones together, and every outcome
// must still be the one each would have had alone.
extension AuthStoreConformance {
    static func recordSignInFailure(_ store: any AuthStore) async throws {
        let factor = try await enrolledFactor(in: store, step: 5)
        let credential = pendingSignIn(of: factor.userID)
        func fail(_ credential: PendingSignInRecord = credential, at time: Int64 = 200) async throws -> SignInFailure {
            try await store.recordSignInFailure(credential: credential, failureKey: factor.id, at: time, limit: 3, lockout: 60)
        }
        let spent = pendingSignIn(of: factor.userID)
        try checkEqual(try await store.spendPendingSignIn(spent), true, "spending a pending sign-in")
        try checkEqual(try await fail(spent), .credentialNotFound, "a wrong code with a spent credential")
        try checkEqual(try await store.failureCounter(key: factor.id), .zero, "the counter after refusals that count nothing")
        try checkEqual(try await fail(), .counted(FailureCounter(consecutiveFailures: 1, lockedUntil: nil)), "the first wrong code")
        try checkEqual(try await fail(), .counted(FailureCounter(consecutiveFailures: 2, lockedUntil: nil)), "the second wrong code")
        try checkEqual(try await fail(), .counted(FailureCounter(consecutiveFailures: 0, lockedUntil: 260)), "the wrong code at the limit")
        try checkEqual(try await fail(at: 259), .locked(until: 260), "a wrong code while locked")
        try checkEqual(
            try await store.failureCounter(key: factor.id), FailureCounter(consecutiveFailures: 0, lockedUntil: 260),
            "the counter after a wrong code while locked, which counts nothing")
        try checkEqual(
            try await fail(at: 260), .counted(FailureCounter(consecutiveFailures: 1, lockedUntil: nil)), "a wrong code once the lock has ended")
        try checkEqual(try await store.isPendingSignInSpent(credential), false, "the credential after wrong codes")
        try checkEqual(try await fail(at: 401), .credentialExpired(expiresAt: 400), "a wrong code with an expired credential")
        try checkEqual(
            try await store.failureCounter(key: factor.id), FailureCounter(consecutiveFailures: 1, lockedUntil: nil),
            "the counter after an expired credential, which counts nothing")
    }

    static func signInFailureCrowd(_ store: any AuthStore) async throws {
        let shared = try await enrolledFactor(in: store, step: 5)
        let sharedCredential = pendingSignIn(of: shared.userID)
        var loners: [(factor: FactorRecord, credential: PendingSignInRecord)] = []
        for _ in 0..<16 {
            let factor = try await enrolledFactor(in: store, step: 5)
            loners.append((factor, pendingSignIn(of: factor.userID)))
        }
        let expired = try await enrolledFactor(in: store, step: 5)
        let expiredCredential = PendingSignInRecord(
            id: uniqueID("credential"), userID: expired.userID, firstFactorProvider: "password", createdAt: 100, expiresAt: 150)
        // Twelve wrong codes on one factor with a limit of five: two locks' worth, then two more,
        // in whatever order the crowd runs them.
        let sharedOutcomes = try await withThrowingTaskGroup(of: [SignInFailure].self) { group in
            for _ in 0..<12 {
                group.addTask {
                    [
                        try await store.recordSignInFailure(
                            credential: sharedCredential, failureKey: shared.id, at: 200, limit: 5, lockout: 60)
                    ]
                }
            }
            for (factor, credential) in loners {
                group.addTask {
                    let outcome = try await store.recordSignInFailure(
                        credential: credential, failureKey: factor.id, at: 200, limit: 5, lockout: 60)
                    try checkEqual(outcome, .counted(FailureCounter(consecutiveFailures: 1, lockedUntil: nil)), "a lone wrong code in a crowd")
                    return []
                }
            }
            group.addTask {
                let outcome = try await store.recordSignInFailure(
                    credential: expiredCredential, failureKey: expired.id, at: 200, limit: 5, lockout: 60)
                try checkEqual(outcome, .credentialExpired(expiresAt: 150), "a wrong code with an expired credential in a crowd")
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // The fifth failure locks; every later one in the crowd finds the lock and counts nothing.
        let counted = sharedOutcomes.filter { if case .counted = $0 { true } else { false } }
        try checkEqual(counted.count, 5, "wrong codes counted on one factor before its lock")
        try checkEqual(
            sharedOutcomes.filter { $0 == .locked(until: 260) }.count, 7, "wrong codes refused by the lock they found on one factor")
        try checkEqual(
            counted.filter { $0 == .counted(FailureCounter(consecutiveFailures: 0, lockedUntil: 260)) }.count, 1,
            "wrong codes that started the lock")
        try checkEqual(
            try await store.failureCounter(key: shared.id), FailureCounter(consecutiveFailures: 0, lockedUntil: 260), "the shared factor's counter")
        for (factor, _) in loners {
            try checkEqual(
                try await store.failureCounter(key: factor.id), FailureCounter(consecutiveFailures: 1, lockedUntil: nil), "a lone factor's counter")
        }
        try checkEqual(try await store.failureCounter(key: expired.id), .zero, "the counter of the expired credential's factor")
    }
}
