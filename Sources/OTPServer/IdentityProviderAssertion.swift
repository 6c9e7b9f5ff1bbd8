internal import Foundation
internal import OTPSealing
internal import OTPAuthentication

/// The IdP credential of an `accounts:signInWithIdp` request: the provider and its ID token from
/// the form-encoded `postBody`, and what the response repeats of the token's claims.
///
/// The claims here are read without any check, so they describe the answer only after the
/// service has verified the token (signature, issuer, audience, lifetime); they never decide who
/// signs in.
struct IdentityProviderAssertion {
    /// The provider id, lower-cased as the emulator reads it.
    let providerID: String
    let idToken: String
    let nonce: String?
    /// The token's claims as JSON text (`rawUserInfo`), `{}` when they cannot be read.
    let rawUserInfo: String
    let claims: [String: Any]

    /// The credential of `postBody`: `INVALID_CREDENTIAL_OR_PROVIDER_ID` without a provider or an
    /// `id_token`, `OPERATION_NOT_ALLOWED` for an access token alone, which this server cannot check.
    init(postBody: String?) throws(IdentityToolkitError) {
        let fields = Self.formFields(postBody ?? "")
        let provider = fields["providerId"]?.lowercased() ?? ""
        guard let token = fields["id_token"], !token.isEmpty, !provider.isEmpty else {
            if !provider.isEmpty, fields["access_token"] != nil {
                throw IdentityToolkitError.notServed(
                    "this server signs in with \(provider) by id_token only: send the provider's ID token in postBody")
            }
            throw IdentityToolkitError(
                "INVALID_CREDENTIAL_OR_PROVIDER_ID", "Invalid IdP response/credential: postBody needs id_token=…&providerId=…")
        }
        providerID = provider
        idToken = token
        nonce = fields["nonce"].flatMap { $0.isEmpty ? nil : $0 }
        let payload = Self.payload(token)
        rawUserInfo = payload.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        claims = payload.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] } ?? [:]
    }

    var credential: AuthCredential {
        OAuthProvider.credential(providerID: providerID, idToken: idToken, rawNonce: nonce)
    }

    var subject: String { claims["sub"] as? String ?? "" }
    var email: String? { claims["email"] as? String }
    var isEmailVerified: Bool { (claims["email_verified"] as? Bool) ?? ((claims["email_verified"] as? String)?.lowercased() == "true") }
    var displayName: String? { claims["name"] as? String }
    var photoURL: String? { claims["picture"] as? String }

    /// Google's answers name the identity as a URL; other providers' by the subject alone.
    var federatedID: String {
        providerID == GoogleAuthProvider.id ? "https://accounts.google.com/" + subject : subject
    }

    /// The response's description of the identity, before what the outcome adds.
    var response: Wire.SignInWithIdpResponse {
        Wire.SignInWithIdpResponse(
            providerId: providerID, federatedId: federatedID, email: email, emailVerified: email == nil ? nil : isEmailVerified,
            displayName: displayName, fullName: displayName, photoUrl: photoURL, rawUserInfo: rawUserInfo, oauthIdToken: idToken)
    }

    /// The JSON of the claims: the token itself in the emulator's JSON form, else a JWT's payload.
    private static func payload(_ token: String) -> Data? {
        let text = token.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") { return Data(text.utf8) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(parts[1]) else { return nil }
        return Data(bytes)
    }

    /// The pairs of a form-encoded body; a name given twice keeps its first value, and a pair
    /// whose percent-encoding is malformed is left out (so its field reads as missing).
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String? { text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decoded(parts[0]), let value = parts.count == 2 ? decoded(parts[1]) : "" else { continue }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }
}
