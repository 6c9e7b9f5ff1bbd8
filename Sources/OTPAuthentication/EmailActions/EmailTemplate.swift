/// The subject and body of one kind of email action's message. `{app}` becomes
/// ``EmailActionSettings/appName``, `{link}` the action's link, `{email}` the address the message
/// goes to and `{newEmail}` the address an account changes to.
public struct EmailTemplate: Sendable, Hashable {
    /// The subject line.
    public var subject: String
    /// The plain-text body; it should hold `{link}`.
    public var body: String

    /// Creates a template.
    public init(subject: String, body: String) {
        self.subject = subject
        self.body = body
    }

    /// Firebase's default messages, in English.
    public static func standard(for kind: EmailActionKind) -> EmailTemplate {
        switch kind {
        case .passwordReset:
            EmailTemplate(
                subject: "Reset your password for {app}",
                body: """
                    Hello,

                    Follow this link to reset your {app} password for your {email} account.

                    {link}

                    If you didn't ask to reset your password, you can ignore this email.
                    """)
        case .verifyEmail:
            EmailTemplate(
                subject: "Verify your email for {app}",
                body: """
                    Hello,

                    Follow this link to verify your email address.

                    {link}

                    If you didn't ask to verify this address, you can ignore this email.
                    """)
        case .emailSignIn:
            EmailTemplate(
                subject: "Sign in to {app} requested at {email}",
                body: """
                    Hello,

                    We received a request to sign in to {app} using this email address. If you want to sign in with your {email} account, click this link:

                    {link}

                    If you did not request this link, you can safely ignore this email.
                    """)
        case .verifyAndChangeEmail:
            EmailTemplate(
                subject: "Verify your new email for {app}",
                body: """
                    Hello,

                    Follow this link to make {newEmail} the email address of your {app} account.

                    {link}

                    If you didn't ask to change the address, you can ignore this email.
                    """)
        case .recoverEmail:
            EmailTemplate(
                subject: "Your sign-in email was changed for {app}",
                body: """
                    Hello,

                    Your sign-in email for {app} was changed to {newEmail}.

                    If you didn't ask to change your email, follow this link to reset your sign-in email.

                    {link}
                    """)
        }
    }

    /// The message of `kind` for these values.
    func message(kind: EmailActionKind, to recipient: String, link: String, appName: String, newEmail: String?) -> EmailMessage {
        func filled(_ text: String) -> String {
            text.replacing("{app}", with: appName).replacing("{email}", with: recipient).replacing("{newEmail}", with: newEmail ?? "")
                .replacing("{link}", with: link)
        }
        return EmailMessage(to: recipient, subject: filled(subject), body: filled(body), link: link, kind: kind)
    }
}
