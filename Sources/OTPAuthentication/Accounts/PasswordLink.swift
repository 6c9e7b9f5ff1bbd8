/// What ``AccountStore/linkPassword(accountID:email:passwordHash:)`` did.
public enum PasswordLink: Hashable, Sendable {
    /// The account has the password and the email address now.
    case linked
    /// The account has a password already (Firebase's `providerAlreadyLinked`): nothing changed.
    case passwordAlreadyLinked
    /// Another account has the email address (Firebase's `emailAlreadyInUse`): nothing changed.
    case emailAlreadyInUse
    /// There is no account with the id.
    case accountNotFound
}
