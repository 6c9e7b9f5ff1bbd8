/// A TOTP code with what it is for: finishing an enrollment (with the ``TOTPSecret``) or signing in
/// (with an enrollment id). One kind cannot be used for the other.
public struct TOTPMultiFactorAssertion: MultiFactorAssertion {
    enum Purpose: Sendable {
        case enrollment(TOTPSecret)
        /// An enrollment known by its session info alone (a server's later request).
        case enrollmentSession(String)
        case signIn(enrollmentID: String)
    }

    let purpose: Purpose
    let oneTimePassword: String

    /// ``TOTPMultiFactorID`` (`"totp"`).
    public var factorID: String { TOTPMultiFactorID }
}
