/// The provider that authenticated the user's first factor, by Firebase's provider id.
public struct FirstFactorProvider: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The Firebase provider id (`"password"`, `"google.com"`, …).
    public let rawValue: String

    /// A provider by its Firebase provider id.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Email and password.
    public static let password = FirstFactorProvider(rawValue: "password")
    /// Email link.
    public static let emailLink = FirstFactorProvider(rawValue: "emailLink")
    /// Google.
    public static let google = FirstFactorProvider(rawValue: "google.com")
    /// Apple.
    public static let apple = FirstFactorProvider(rawValue: "apple.com")
    /// Facebook.
    public static let facebook = FirstFactorProvider(rawValue: "facebook.com")
    /// GitHub.
    public static let github = FirstFactorProvider(rawValue: "github.com")
    /// Microsoft.
    public static let microsoft = FirstFactorProvider(rawValue: "microsoft.com")
    /// A passkey (Firebase's `ProviderId.PASSKEY`).
    public static let passkey = FirstFactorProvider(rawValue: "passkey")
    /// Anonymous sign-in: cannot be combined with multi-factor authentication.
    public static let anonymous = FirstFactorProvider(rawValue: "anonymous")
    /// Phone number: cannot be combined with multi-factor authentication.
    public static let phone = FirstFactorProvider(rawValue: "phone")
    /// Custom token: cannot be combined with multi-factor authentication.
    public static let customToken = FirstFactorProvider(rawValue: "custom")
    /// Apple Game Center: cannot be combined with multi-factor authentication.
    public static let gameCenter = FirstFactorProvider(rawValue: "gc.apple.com")

    /// The first factors Firebase refuses to combine with a second factor.
    public static let unsupportedWithMultiFactor: Set<FirstFactorProvider> = [.anonymous, .phone, .customToken, .gameCenter]

    /// Whether a user who signed in with this provider may enroll a second factor.
    public var supportsMultiFactor: Bool { !Self.unsupportedWithMultiFactor.contains(self) }

    public var description: String { rawValue }
}
