/// How email-and-password accounts work: the hash's cost, what a password must be, and what a
/// failed sign-in tells the caller.
public struct PasswordSettings: Sendable, Hashable {
    /// The cost of new password hashes; a hash made at other parameters is re-hashed at these on
    /// its owner's next successful sign-in.
    public var hashParameters: PasswordHashParameters
    /// The fewest characters a password may have (Firebase's 6 by default); shorter ones are
    /// refused with `weakPassword`.
    public var minimumLength: Int
    /// On (the default, as in new Firebase projects), an unknown email and a wrong password are
    /// one error, `invalidCredential` (`INVALID_LOGIN_CREDENTIALS`), and take the same time, so a
    /// sign-in form cannot be used to find out which addresses have accounts. Off, they are
    /// `userNotFound` and `wrongPassword`.
    public var emailEnumerationProtection: Bool

    /// Settings.
    public init(hashParameters: PasswordHashParameters = .default, minimumLength: Int = 6, emailEnumerationProtection: Bool = true) {
        self.hashParameters = hashParameters
        self.minimumLength = minimumLength
        self.emailEnumerationProtection = emailEnumerationProtection
    }
}
