import OTPAuthentication

// What a store forgets with time: failures in a row by their age, and where accounts signed in
// from.
extension AuthStoreConformance {
    static func failuresForgottenByAge(_ store: any AuthStore) async throws {
        let old = uniqueID("password")
        let recent = uniqueID("password")
        let locked = uniqueID("password")
        _ = try await store.recordFailure(key: old, at: 100, limit: 5, lockout: 60)
        _ = try await store.recordFailure(key: recent, at: 100, limit: 5, lockout: 60)
        _ = try await store.recordFailure(key: recent, at: 300, limit: 5, lockout: 60)
        _ = try await store.recordFailure(key: locked, at: 100, limit: 1, lockout: 10_000)
        let oldCode = try await enrolledFactor(in: store, step: 5)
        let recentCode = try await enrolledFactor(in: store, step: 5)
        _ = try await store.recordSignInFailure(
            credential: pendingSignIn(of: oldCode.userID), failureKey: oldCode.id, at: 150, limit: 5, lockout: 60)
        _ = try await store.recordSignInFailure(
            credential: pendingSignIn(of: recentCode.userID), failureKey: recentCode.id, at: 300, limit: 5, lockout: 60)

        try await store.purgeExpired(before: 400, failuresCountedBefore: 200)
        try checkEqual(try await store.failureCounter(key: old), .zero, "failures last counted before the horizon")
        try checkEqual(
            try await store.failureCounter(key: recent), FailureCounter(consecutiveFailures: 2, lockedUntil: nil),
            "failures last counted after the horizon, the first before it")
        try checkEqual(try await store.failureCounter(key: locked).lockedUntil, 10_100, "a lock in force, however old")
        try checkEqual(try await store.failureCounter(key: oldCode.id), .zero, "a wrong code counted before the horizon")
        try checkEqual(
            try await store.failureCounter(key: recentCode.id), FailureCounter(consecutiveFailures: 1, lockedUntil: nil),
            "a wrong code counted after the horizon")
    }

    static func signInSources(_ store: any AuthStore) async throws {
        let ada = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1)
        let bob = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1)
        _ = try await store.insertAccount(ada)
        _ = try await store.insertAccount(bob)
        let home = "192.0.2.1"
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 0), false, "a source never recorded")
        try await store.recordSignInSource(home, accountID: ada.id, until: 1_000)
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 1_000), true, "a source at the end of its time")
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 1_001), false, "a source after its time")
        try checkEqual(try await store.isKnownSignInSource(home, accountID: bob.id, at: 500), false, "another account's source")
        try checkEqual(try await store.isKnownSignInSource("2001:db8::1", accountID: ada.id, at: 500), false, "another source")
        try await store.recordSignInSource(home, accountID: ada.id, until: 500)
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 1_000), true, "an earlier time does not shorten it")
        try await store.recordSignInSource(home, accountID: ada.id, until: 2_000)
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 1_500), true, "a later time extends it")

        let cafe = "198.51.100.7"
        try await store.recordSignInSource(cafe, accountID: ada.id, until: 100)
        try await store.purgeExpired(before: 101, failuresCountedBefore: 0)
        try checkEqual(try await store.isKnownSignInSource(cafe, accountID: ada.id, at: 100), false, "a source purged after its time")
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 1_500), true, "a source purging kept")

        try await store.recordSignInSource(home, accountID: bob.id, until: 2_000)
        try checkEqual(try await store.deleteAccount(id: ada.id), true, "deleting Ada")
        try checkEqual(try await store.isKnownSignInSource(home, accountID: ada.id, at: 1_500), false, "a deleted account's source")
        try checkEqual(try await store.isKnownSignInSource(home, accountID: bob.id, at: 1_500), true, "another account's source, kept")
    }
}
