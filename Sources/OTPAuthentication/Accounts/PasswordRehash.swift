/// A password hash replaced at a sign-in (at new parameters, or in OTPKit's form for an imported
/// hash): the new hash, and the one the password was just checked against, which it replaces only
/// while that is still the account's (``AccountStore/recordAccountSignIn(id:at:rehash:)``).
public struct PasswordRehash: Sendable, Hashable {
    /// The stored hash the password matched.
    public var verified: String
    /// The new hash of the same password.
    public var replacement: String

    /// A re-hash of the password that matched `verified`.
    public init(verified: String, replacement: String) {
        self.verified = verified
        self.replacement = replacement
    }
}
