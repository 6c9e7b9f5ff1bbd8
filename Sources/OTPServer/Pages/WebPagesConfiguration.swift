public import OTPFederation

/// What the account page and the admin console serve and to whom (``WebPages``).
public struct WebPagesConfiguration: Sendable {
    /// The email addresses (in any letter case) of the accounts that may use the admin console,
    /// each once signed in with a second factor. Empty: the console is closed.
    public var administrators: Set<String>
    /// Whether the sign-in page offers a passkey (the service's passkeys need a relying party).
    public var offersPasskeys: Bool
    /// The identity providers the sign-in page offers, in order: each sends the browser to its
    /// provider and exchanges the code it brings back. The service must verify each one's tokens
    /// (an `IdentityTokenVerifier` with the same provider id).
    public var signInProviders: [OpenIDAuthorizationClient]

    /// Creates a configuration.
    public init(administrators: Set<String> = [], offersPasskeys: Bool = false, signInProviders: [OpenIDAuthorizationClient] = []) {
        self.administrators = Set(administrators.map { $0.lowercased() })
        self.offersPasskeys = offersPasskeys
        self.signInProviders = signInProviders
    }
}
