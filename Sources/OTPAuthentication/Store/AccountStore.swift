/// Accounts and their provider identities: what a first factor signs in to.
///
/// A requirement of ``AuthStore``; each operation is atomic on its own, and those that
/// decide a race (an address or identity taken once) decide it in the store.
public protocol AccountStore: Sendable {
    /// Stores a new account, and links `identity` to it when given, in one atomic operation,
    /// checking in this order:
    /// 1. no account has the record's id (otherwise ``AccountInsertion/idAlreadyInUse``);
    /// 2. no account has `identity` (otherwise ``AccountInsertion/identityInUse(accountID:)``, naming
    ///    its owner);
    /// 3. no account has the record's email address, compared as stored: normalized (otherwise
    ///    ``AccountInsertion/emailAlreadyInUse``).
    ///
    /// A refusal stores nothing: neither the account nor the identity. Of concurrent insertions with
    /// one email address, or with one identity, exactly one succeeds.
    ///
    /// The `password` provider is never an identity here: an account has a password when its
    /// ``AccountRecord/passwordHash`` is set.
    func insertAccount(_ record: AccountRecord, identity: ProviderIdentity?) async throws -> AccountInsertion

    /// The account with `id`, or `nil`.
    func account(id: String) async throws -> AccountRecord?

    /// The account with the normalized email address `email`, or `nil`.
    func account(email: String) async throws -> AccountRecord?

    /// Links `identity` to account `accountID`, and when `email` is given sets the account's
    /// ``AccountRecord/email`` and ``AccountRecord/isEmailVerified`` to it, in one atomic operation,
    /// checking in this order:
    /// 1. the account exists (otherwise ``ProviderLink/accountNotFound``);
    /// 2. no account has the identity (otherwise ``ProviderLink/identityInUse(accountID:)``, naming
    ///    its owner, which may be this account);
    /// 3. the account has no identity of that provider (otherwise ``ProviderLink/providerAlreadyLinked``);
    /// 4. no other account has `email`'s address (otherwise ``ProviderLink/emailAlreadyInUse``).
    ///
    /// A refusal changes nothing. Of concurrent links of one identity, or with one address, exactly
    /// one succeeds.
    func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String, email: AccountEmailUpdate?) async throws -> ProviderLink

    /// Gives account `accountID` a password: sets its ``AccountRecord/email`` to `email` (normalized
    /// by the caller) and its ``AccountRecord/passwordHash`` to `passwordHash` in one atomic
    /// operation. ``AccountRecord/isEmailVerified`` stays as it was when `email` is the account's
    /// current address, and becomes `false` otherwise. Checks in this order:
    /// 1. the account exists (otherwise ``PasswordLink/accountNotFound``);
    /// 2. it has no password hash (otherwise ``PasswordLink/passwordAlreadyLinked``);
    /// 3. no other account has the address (otherwise ``PasswordLink/emailAlreadyInUse``).
    ///
    /// A refusal changes nothing. Of concurrent links with one address, exactly one succeeds.
    func linkPassword(accountID: String, email: String, passwordHash: String) async throws -> PasswordLink

    /// Removes the account's identity of `providerID`: whether there was one.
    ///
    /// For `password`, which is not stored as an identity, clears the account's
    /// ``AccountRecord/passwordHash``, ``AccountRecord/email`` and ``AccountRecord/isEmailVerified``
    /// (as Firebase's emulator does), and returns whether the account had a password.
    func unlinkProvider(_ providerID: String, accountID: String) async throws -> Bool

    /// The id of the account that has the identity (`providerID`, `providerUID`), or `nil`.
    func accountID(providerID: String, providerUID: String) async throws -> String?

    /// The account's provider identities, ordered by provider id.
    func providerIdentities(accountID: String) async throws -> [ProviderIdentity]

    /// Records a first-factor sign-in of account `id` at `time` and, with `rehash`, replaces its
    /// password hash with ``PasswordRehash/replacement`` when it is still
    /// ``PasswordRehash/verified``, in one atomic step: a password changed since it was checked is
    /// never put back, and of concurrent re-hashes of one hash exactly one is stored. Nothing when
    /// there is no such account.
    func recordAccountSignIn(id: String, at time: Int64, rehash: PasswordRehash?) async throws

    /// Sets whether account `id` is disabled (``AccountRecord/isDisabled``): whether there is such an
    /// account.
    func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool

    /// Sets account `id`'s ``AccountRecord/displayName`` and ``AccountRecord/photoURL`` to the given
    /// values (`nil` clears one): whether there is such an account.
    func updateAccountProfile(id: String, displayName: String?, photoURL: String?) async throws -> Bool

    /// Applies `changes` to account `id` in one atomic operation, checking in this order:
    /// 1. the account exists (otherwise ``AccountUpdate/accountNotFound``);
    /// 2. no other account has the new email address (otherwise ``AccountUpdate/emailAlreadyInUse``);
    /// 3. no other account has the new phone identity (otherwise
    ///    ``AccountUpdate/identityInUse(accountID:)``).
    ///
    /// The record's fields change as ``AccountChanges/applied(to:)`` says; a new phone identity
    /// replaces the account's identity of its provider, and a removal deletes the account's `phone`
    /// identity. A refusal changes nothing. Of concurrent updates with one address, or one phone
    /// identity, at most one succeeds.
    func updateAccount(id: String, changes: AccountChanges) async throws -> AccountUpdate

    /// Up to `limit` accounts whose ids come after `id` (all when `nil`), in the order of their ids'
    /// UTF-8 bytes: one page of a listing that goes on after the last id of the page before.
    func accounts(after id: String?, limit: Int) async throws -> [AccountRecord]

    /// Deletes account `id` and everything of its user in one atomic operation: its provider
    /// identities, TOTP and phone factors with their failure counters, pending enrollments,
    /// phone verifications, sessions, recovery codes and email actions. Returns
    /// whether there was such an account; without one, changes nothing. Its email address and
    /// identities are free for other accounts afterwards.
    func deleteAccount(id: String) async throws -> Bool
}

extension AccountStore {
    /// Stores a new account without a provider identity:
    /// ``insertAccount(_:identity:)`` with `nil`.
    public func insertAccount(_ record: AccountRecord) async throws -> AccountInsertion {
        try await insertAccount(record, identity: nil)
    }

    /// Links `identity` to account `accountID` without changing its email address:
    /// ``linkProviderIdentity(_:accountID:email:)`` with `nil`.
    public func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String) async throws -> ProviderLink {
        try await linkProviderIdentity(identity, accountID: accountID, email: nil)
    }
}
