public import OTPWebAuthn

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// The settings of passkeys (WebAuthn credentials) as a first factor: the relying party users
/// register them with, and the limits of its ceremonies. Off until ``relyingPartyID`` is set.
public struct PasskeySettings: Sendable, Hashable {
    /// The RP ID passkeys are bound to: the site's registrable domain (`example.com`), or
    /// `localhost`; `nil` turns passkeys off (``AuthErrorCode/passkeyNotEnabled``). A passkey works
    /// only for the RP ID it was made for, so changing it strands every registered passkey.
    public var relyingPartyID: String?
    /// The name authenticators show beside the account (W3C's `rp.name`).
    public var relyingPartyName: String
    /// The origins ceremonies may run on, exactly as browsers write them
    /// (`https://example.com`, `http://localhost:5173`): the RP ID's domain or its subdomains.
    public var origins: Set<String>
    /// Whether authenticators must verify the user (a PIN, a fingerprint, a face): `required` by
    /// default, since a passkey sign-in answers no second-factor challenge. With `preferred`, an
    /// assertion without verification still signs in an account without second factors.
    public var userVerification: UserVerification
    /// Seconds a ceremony's challenge stays usable (default 300, W3C's recommended timeout).
    public var challengeLifetime: Int64
    /// The most passkeys one user may register (default 10).
    public var maximumPerUser: Int

    /// Creates settings; passkeys are off until an RP ID and its origins are given.
    public init(
        relyingPartyID: String? = nil, relyingPartyName: String = "OTPKit", origins: Set<String> = [],
        userVerification: UserVerification = .required, challengeLifetime: Int64 = 300, maximumPerUser: Int = 10
    ) {
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.origins = origins
        self.userVerification = userVerification
        self.challengeLifetime = challengeLifetime
        self.maximumPerUser = maximumPerUser
    }

    /// The relying party that verifies responses, `nil` when passkeys are off. Registration asks
    /// for no attestation, so a statement of a format OTPKit does not verify is taken as none.
    var relyingParty: RelyingParty? {
        relyingPartyID.map { RelyingParty(id: $0, origins: origins, attestation: AttestationPolicy(otherFormats: .acceptAsNone)) }
    }

    func validate() throws(MultiFactorConfigurationError) {
        guard let relyingPartyID else { return }
        func invalid(_ detail: String) -> MultiFactorConfigurationError { .invalidPasskeySetting(detail) }
        guard !relyingPartyID.isEmpty, !relyingPartyID.contains(where: { $0 == "/" || $0 == ":" || $0.isWhitespace }) else {
            throw invalid("the RP ID \(relyingPartyID.debugDescription) is not a domain: give the site's domain, such as example.com, or localhost")
        }
        guard !origins.isEmpty else {
            throw invalid("no origins: give each origin ceremonies run on, such as https://\(relyingPartyID)")
        }
        for origin in origins {
            // An origin is a scheme, a host and maybe a port: no path, query or credentials.
            let parts = URLComponents(string: origin)
            let host = parts?.host ?? ""
            let isOrigin = parts.map { $0.path.isEmpty && $0.query == nil && $0.fragment == nil && $0.user == nil } ?? false
            let secure = parts?.scheme == "https" || (parts?.scheme == "http" && (host == "localhost" || host.hasSuffix(".localhost")))
            guard isOrigin, secure, host == relyingPartyID || host.hasSuffix("." + relyingPartyID) else {
                throw invalid(
                    "the origin \(origin.debugDescription) cannot use the RP ID \(relyingPartyID): give https://\(relyingPartyID) or a subdomain (http only for localhost)"
                )
            }
        }
        guard challengeLifetime > 0 else { throw .nonPositiveDuration(name: "passkeys.challengeLifetime", seconds: challengeLifetime) }
        guard maximumPerUser >= 1 else { throw invalid("maximumPerUser \(maximumPerUser) is below 1: allow at least one passkey") }
    }
}
