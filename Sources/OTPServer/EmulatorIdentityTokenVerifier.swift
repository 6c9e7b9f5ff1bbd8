internal import Foundation
internal import OTPSealing
public import OTPAuthentication

/// The IdP credentials Firebase's Auth emulator accepts, for `otpkit-server --emulator` only:
/// an `id_token` that is a JSON object of claims, or an unsigned JWT (`alg: none`, empty
/// signature), either with a string `sub` (`IDENTITY-TOOLKIT.md` C.5). Tests and local apps sign
/// in with made-up identities this way, as they do against the emulator.
///
/// A signed token goes to the provider's real verifier when the server has one, so that under the
/// emulator too a signed token is checked against the provider's keys, never trusted unread; with
/// no real verifier a signed token is refused.
public struct EmulatorIdentityTokenVerifier: IdentityTokenVerifier {
    /// The provider id this verifier answers for.
    public let providerID: String
    let signed: (any IdentityTokenVerifier)?

    /// A verifier of `providerID`'s unsigned credentials, handing signed tokens to `signed`.
    public init(providerID: String, signed: (any IdentityTokenVerifier)? = nil) {
        self.providerID = providerID
        self.signed = signed
    }

    /// The providers that take the emulator's unsigned credentials without being configured.
    package static let defaultProviderIDs = [GoogleAuthProvider.id, "apple.com"]

    /// A server's verifiers under the emulator: the unsigned form in front of each of `verifiers`,
    /// and alone for the ``defaultProviderIDs`` that `verifiers` lacks.
    package static func inFront(of verifiers: [any IdentityTokenVerifier]) -> [any IdentityTokenVerifier] {
        var byProvider: [String: any IdentityTokenVerifier] = [:]
        for providerID in defaultProviderIDs { byProvider[providerID] = EmulatorIdentityTokenVerifier(providerID: providerID) }
        for verifier in verifiers {
            byProvider[verifier.providerID] = EmulatorIdentityTokenVerifier(providerID: verifier.providerID, signed: verifier)
        }
        return byProvider.keys.sorted().compactMap { byProvider[$0] }
    }

    /// The identity an unsigned credential names, or `signed`'s answer for a signed token.
    public func verify(idToken: String, nonce: String?) async throws(IdentityTokenError) -> VerifiedIdentity {
        if let claims = try Self.unsignedClaims(idToken) {
            return try Self.identity(claims)
        }
        guard let signed else {
            throw .rejected(
                "the token is signed and this server has no keys for \(providerID): start otpkit-server with --identity-provider \(providerID)=…, or send the emulator's unsigned form (JSON claims, or a JWT with alg none)"
            )
        }
        return try await signed.verify(idToken: idToken, nonce: nonce)
    }

    /// The claims of an unsigned credential, `nil` for what looks like a signed JWT.
    static func unsignedClaims(_ token: String) throws(IdentityTokenError) -> [String: Any]? {
        let text = token.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            guard let claims = object(Data(text.utf8)) else { throw .rejected("the JSON claims are not a JSON object") }
            return claims
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .rejected("the token is neither JSON claims nor a JWT of three parts") }
        guard let headerBytes = Base64URL.decode(parts[0]), let header = object(Data(headerBytes)) else {
            throw .rejected("the JWT's header is not base64url JSON")
        }
        guard (header["alg"] as? String)?.lowercased() == "none" else { return nil }
        guard parts[2].isEmpty else { throw .rejected("an unsigned JWT (alg none) must have an empty signature") }
        guard let payloadBytes = Base64URL.decode(parts[1]), let claims = object(Data(payloadBytes)) else {
            throw .rejected("the JWT's payload is not base64url JSON")
        }
        return claims
    }

    static func identity(_ claims: [String: Any]) throws(IdentityTokenError) -> VerifiedIdentity {
        guard let subject = claims["sub"] as? String, !subject.isEmpty else {
            throw .rejected("the emulator's credential needs a non-empty string sub")
        }
        // Some providers write email_verified as the string "true".
        let verified = (claims["email_verified"] as? Bool) ?? ((claims["email_verified"] as? String)?.lowercased() == "true")
        return VerifiedIdentity(
            subject: subject, email: claims["email"] as? String, isEmailVerified: verified, displayName: claims["name"] as? String,
            photoURL: claims["picture"] as? String)
    }

    private static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
