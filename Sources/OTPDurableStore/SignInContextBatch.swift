package import OTPAuthentication

/// Many second steps taken up together (`AuthStore.pendingSignInContext`): the spent state,
/// account, identities and factors of every credential of the batch, read in one statement per
/// kind of row.
package struct SignInContextBatch: Sendable {
    /// Each request's context, in the order of the requests: `nil` for a spent credential.
    package private(set) var contexts: [PendingSignInContext?] = []

    /// Answers `credentials` from the rows read for all of them: the ids of those spent, the
    /// accounts, each account's identities ordered by provider id, and the users' factors.
    package init(
        _ credentials: [PendingSignInRecord], spent: Set<String>, accounts: [AccountRecord], identities: [String: [ProviderIdentity]],
        factors: SignInStartBatch
    ) {
        let accountsByID = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        contexts = zip(credentials, factors.factors).map { credential, factors in
            guard !spent.contains(credential.id) else { return nil }
            return PendingSignInContext(
                credential: credential, account: accountsByID[credential.userID], identities: identities[credential.userID] ?? [],
                factors: factors)
        }
    }

    /// The distinct credentials and users the batch reads.
    package static func keys(of credentials: [PendingSignInRecord]) -> (credentials: [PendingSignInRecord], users: [String]) {
        (Array(Set(credentials)), SignInStartBatch.users(of: credentials.map(\.userID)))
    }
}
