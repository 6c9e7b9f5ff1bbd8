/// What an email action's code does, read without using it (Firebase's `ActionCodeInfo`, from
/// `checkActionCode`).
public struct ActionCodeInfo: Sendable, Hashable {
    /// What the code does.
    public var kind: EmailActionKind
    /// The account's address when the code was made: the address the message went to, but for
    /// ``EmailActionKind/verifyAndChangeEmail``, whose message went to ``newEmail``; for
    /// ``EmailActionKind/recoverEmail``, the address the code restores.
    public var email: String
    /// For ``EmailActionKind/verifyAndChangeEmail``, the new address; for
    /// ``EmailActionKind/recoverEmail``, the address the account was changed to.
    public var newEmail: String?

    /// The account's address once the code is applied.
    public var emailAfterApplying: String {
        kind == .verifyAndChangeEmail ? newEmail ?? email : email
    }

    /// Creates an answer.
    public init(kind: EmailActionKind, email: String, newEmail: String?) {
        self.kind = kind
        self.email = email
        self.newEmail = newEmail
    }
}

/// An email action's link made for an administrator to hand on (firebase-admin's
/// `generate_password_reset_link` and its siblings); nothing was sent.
public struct EmailActionLink: Sendable, Hashable {
    /// The code (the link's `oobCode`).
    public var code: String
    /// The link.
    public var link: String
    /// The address the action is for.
    public var email: String
}
