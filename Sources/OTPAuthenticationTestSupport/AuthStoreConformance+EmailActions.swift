import OTPAuthentication

// Email actions: codes kept by digest, used once with their change, refused when expired or when
// the change cannot be made.
extension AuthStoreConformance {
    static func emailAction(_ kind: EmailActionKind, accountID: String?, email: String, newEmail: String? = nil, expiresAt: Int64)
        -> EmailActionRecord
    {
        EmailActionRecord(
            codeDigest: Array(uniqueID("digest").utf8), kind: kind, accountID: accountID, email: email, newEmail: newEmail, createdAt: 100,
            expiresAt: expiresAt)
    }

    static func emailActions(_ store: any AuthStore) async throws {
        let ada = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("ada"))@example.com", createdAt: 1, passwordHash: "old")
        _ = try await store.insertAccount(ada)
        let reset = emailAction(.passwordReset, accountID: ada.id, email: ada.email!, expiresAt: 1_000)
        let signIn = emailAction(.emailSignIn, accountID: nil, email: "\(uniqueID("new"))@example.com", expiresAt: 1_000)
        try await store.insertEmailAction(reset)
        try await store.insertEmailAction(signIn)
        try checkEqual(try await store.emailAction(digests: [reset.codeDigest]), reset, "an action round-trips every field")
        try checkEqual(try await store.emailAction(digests: [Array("other".utf8), signIn.codeDigest]), signIn, "found by any of its digests")
        try checkEqual(try await store.emailAction(digests: [Array("other".utf8)]), nil, "an unknown digest")

        let changed = try await store.completeEmailAction(
            digest: reset.codeDigest, at: 1_000, changes: AccountChanges(isEmailVerified: true, passwordHash: "new"))
        guard case .completed(let account?) = changed else {
            throw AuthStoreConformanceFailure(message: "a reset at its last second: \(changed)", file: #filePath, line: #line)
        }
        try checkEqual(account.passwordHash, "new", "the completion's account")
        try checkEqual(try await store.account(id: ada.id)?.passwordHash, "new", "the change stored with the code's use")
        try checkEqual(try await store.account(id: ada.id)?.isEmailVerified, true, "every change stored")
        try checkEqual(
            try await store.completeEmailAction(digest: reset.codeDigest, at: 500, changes: AccountChanges(passwordHash: "again")),
            .notFound, "a code used once")
        try checkEqual(try await store.account(id: ada.id)?.passwordHash, "new", "a used code changes nothing")
        try checkEqual(try await store.emailAction(digests: [reset.codeDigest]), nil, "a used code is gone")

        try checkEqual(
            try await store.completeEmailAction(digest: signIn.codeDigest, at: 10, changes: nil), .completed(account: nil),
            "an action without changes, for an address without an account")

        let late = emailAction(.verifyEmail, accountID: ada.id, email: ada.email!, expiresAt: 1_000)
        try await store.insertEmailAction(late)
        try checkEqual(
            try await store.completeEmailAction(digest: late.codeDigest, at: 1_001, changes: AccountChanges(isEmailVerified: false)), .expired,
            "a code after its last second")
        try checkEqual(try await store.emailAction(digests: [late.codeDigest]), nil, "an expired code, once refused, is gone")
        try checkEqual(try await store.account(id: ada.id)?.isEmailVerified, true, "an expired code changes nothing")

        // A change the account cannot take keeps the code.
        let bob = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("bob"))@example.com", createdAt: 1)
        _ = try await store.insertAccount(bob)
        let change = emailAction(.verifyAndChangeEmail, accountID: ada.id, email: ada.email!, newEmail: bob.email, expiresAt: 1_000)
        try await store.insertEmailAction(change)
        try checkEqual(
            try await store.completeEmailAction(digest: change.codeDigest, at: 10, changes: AccountChanges(email: bob.email, isEmailVerified: true)),
            .accountNotUpdated(.emailAlreadyInUse), "a new address another account has")
        try checkEqual(try await store.emailAction(digests: [change.codeDigest]), change, "a refused change keeps its code")
        try checkEqual(try await store.account(id: ada.id)?.email, ada.email, "a refused change writes nothing")
        // Changes may go to another account than the action's: a signed-in user linking an address.
        let linkAddress = "\(uniqueID("link"))@example.com"
        let link = emailAction(.emailSignIn, accountID: nil, email: linkAddress, expiresAt: 1_000)
        try await store.insertEmailAction(link)
        let linked = try await store.completeEmailAction(
            digest: link.codeDigest, at: 10, changes: AccountChanges(email: linkAddress, isEmailVerified: true), accountID: bob.id)
        guard case .completed(let linkedAccount?) = linked, linkedAccount.id == bob.id else {
            throw AuthStoreConformanceFailure(message: "an address linked to another account: \(linked)", file: #filePath, line: #line)
        }
        try checkEqual(try await store.account(id: bob.id)?.email, linkAddress, "the address stored on the account given")
        try checkEqual(try await store.emailAction(digests: [link.codeDigest]), nil, "the link's code used")
        let gone = emailAction(.verifyEmail, accountID: uniqueID("nobody"), email: "gone@example.com", expiresAt: 1_000)
        try await store.insertEmailAction(gone)
        try checkEqual(
            try await store.completeEmailAction(digest: gone.codeDigest, at: 10, changes: AccountChanges(isEmailVerified: true)),
            .accountNotUpdated(.accountNotFound), "an action whose account is gone")

        try checkEqual(try await store.deleteEmailAction(digest: gone.codeDigest), true, "a code whose message was not sent, deleted")
        try checkEqual(try await store.deleteEmailAction(digest: gone.codeDigest), false, "a code deleted already")

        let expiring = emailAction(.verifyEmail, accountID: bob.id, email: bob.email!, expiresAt: 50)
        try await store.insertEmailAction(expiring)
        try await store.purgeExpired(before: 51, failuresCountedBefore: 0)
        try checkEqual(try await store.emailAction(digests: [expiring.codeDigest]), nil, "an expired code purged")
        try checkEqual(try await store.emailAction(digests: [change.codeDigest]), change, "a live code kept by the purge")
        try checkEqual(try await store.deleteAccount(id: ada.id), true, "deleting Ada")
        try checkEqual(try await store.emailAction(digests: [change.codeDigest]), nil, "a deleted account's codes go with it")
    }

    static func concurrentEmailAction(_ store: any AuthStore) async throws {
        let ada = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("ada"))@example.com", createdAt: 1)
        _ = try await store.insertAccount(ada)
        let reset = emailAction(.passwordReset, accountID: ada.id, email: ada.email!, expiresAt: 1_000)
        try await store.insertEmailAction(reset)
        let outcomes = try await withThrowingTaskGroup(of: EmailActionCompletion.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await store.completeEmailAction(digest: reset.codeDigest, at: 10, changes: AccountChanges(passwordHash: "hash-\(index)"))
                }
            }
            return try await group.reduce(into: [EmailActionCompletion]()) { $0.append($1) }
        }
        let winners = outcomes.compactMap { outcome -> String? in
            if case .completed(let account) = outcome { return account?.passwordHash }
            return nil
        }
        try checkEqual(winners.count, 1, "completions among 20 concurrent uses of one code")
        try checkEqual(outcomes.filter { $0 == .notFound }.count, 19, "uses that found the code used")
        try checkEqual(try await store.account(id: ada.id)?.passwordHash, winners.first, "the winner's change alone")
    }
}
