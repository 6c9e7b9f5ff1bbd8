/// What the account page and the admin console serve and to whom (``WebPages``).
public struct WebPagesConfiguration: Sendable {
    /// The email addresses (in any letter case) of the accounts that may use the admin console,
    /// each once signed in with a second factor. Empty: the console is closed.
    public var administrators: Set<String>
    /// Whether the sign-in page offers a passkey (the service's passkeys need a relying party).
    public var offersPasskeys: Bool

    /// Creates a configuration.
    public init(administrators: Set<String> = [], offersPasskeys: Bool = false) {
        self.administrators = Set(administrators.map { $0.lowercased() })
        self.offersPasskeys = offersPasskeys
    }
}
