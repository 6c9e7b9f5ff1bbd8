import OTPCore
import OTPAuthentication

extension OpenIDTokenVerifier {
    /// Checks the claims of a token whose signature is the provider's, in the order of OpenID
    /// Connect Core section 3.1.3.7, and returns the identity they name.
    func check(_ claims: IDTokenClaims, nonce: String?, now: Double) throws(IdentityTokenError) -> VerifiedIdentity {
        if let problem = claims.problems.first {
            throw .rejected("its claims are malformed: \(problem)")
        }
        try checkIssuer(claims.issuer)
        try checkAudience(claims.audiences)
        try checkTimes(claims, now: now)
        guard let subject = claims.subject, !subject.isEmpty else {
            throw .rejected("it names no subject (sub), the user's id at the provider, which every ID token carries")
        }
        if let nonce, !nonce.isEmpty {
            try Self.checkNonce(claims.nonce, expected: nonce)
        }
        return VerifiedIdentity(
            subject: subject, email: claims.email, isEmailVerified: claims.emailVerified ?? false, displayName: claims.name,
            photoURL: claims.picture)
    }

    private func checkIssuer(_ issuer: String?) throws(IdentityTokenError) {
        guard let issuer else { throw .rejected("it names no issuer (iss), which every ID token carries") }
        // The refusals reach clients: they name what the token said, never what this server accepts.
        guard settings.issuers.contains(issuer) else {
            throw .rejected(
                "it was issued by \(Self.quoted(issuer)), not by an issuer this server accepts for \(providerID): it is another provider's "
                    + "or tenant's token, or the issuers setting does not spell the issuer as the provider's discovery document does")
        }
    }

    private func checkAudience(_ audiences: [String]?) throws(IdentityTokenError) {
        guard let audiences, !audiences.isEmpty else {
            throw .rejected("it names no audience (aud), the client id it was issued for, which every ID token carries")
        }
        guard audiences.contains(where: settings.audiences.contains) else {
            let named = audiences.prefix(5).map { Self.quoted($0) }.joined(separator: ", ") + (audiences.count > 5 ? ", …" : "")
            throw .rejected(
                "it was issued for the audience \(named), not for one of this server's client ids: the app signed in "
                    + "with another OAuth client; if that client is yours, add its id to the provider's audiences")
        }
    }

    private func checkTimes(_ claims: IDTokenClaims, now: Double) throws(IdentityTokenError) {
        let skew = settings.clockSkew.seconds
        let skewText = "the allowed clock skew of \(KeySetLoader.format(skew)) s"
        guard let expiresAt = claims.expiresAt else {
            throw .rejected("it has no expiry (exp), which every ID token carries")
        }
        // RFC 7519 section 4.1.4: valid only before exp, here before exp plus the skew.
        if now >= expiresAt + skew {
            throw .rejected(
                "it expired \(Self.seconds(now - expiresAt)) ago (exp \(Self.seconds(expiresAt, unit: false))), beyond \(skewText): "
                    + "have the app get a fresh token from the provider, or correct this server's clock if it is wrong")
        }
        if let notBefore = claims.notBefore, notBefore > now + skew {
            throw .rejected(
                "it is not valid until \(Self.seconds(notBefore - now)) from now (nbf \(Self.seconds(notBefore, unit: false))), "
                    + "beyond \(skewText): check this server's clock against the provider's")
        }
        guard let issuedAt = claims.issuedAt else {
            throw .rejected("it has no issue time (iat), which every ID token carries")
        }
        if issuedAt > now + skew {
            throw .rejected(
                "it was issued \(Self.seconds(issuedAt - now)) in the future (iat \(Self.seconds(issuedAt, unit: false))), "
                    + "beyond \(skewText): check this server's clock against the provider's")
        }
        if let maximumAge = settings.maximumTokenAge?.seconds, now - issuedAt > maximumAge + skew {
            throw .rejected(
                "it was issued \(Self.seconds(now - issuedAt)) ago, more than the maximum token age of "
                    + "\(KeySetLoader.format(maximumAge)) s: have the app sign in with the provider again")
        }
    }

    /// Compares without revealing through timing how much of a guess was right; both forms are
    /// always compared.
    private static func checkNonce(_ claim: String?, expected: String) throws(IdentityTokenError) {
        guard let claim, !claim.isEmpty else {
            throw .rejected(
                "it carries no nonce, but this sign-in sent one: have the app pass the nonce (or its SHA-256) to the provider "
                    + "when it requests the token")
        }
        guard let hashed = Checksum.sha256Hex(Array(expected.utf8)) else {
            throw .rejected("its nonce could not be compared: SHA-256 failed in OpenSSL")
        }
        let raw = ConstantTime.equal(Array(claim.utf8), Array(expected.utf8))
        let digest = ConstantTime.equal(Array(claim.lowercased().utf8), Array(hashed.utf8))
        guard raw || digest else {
            throw .rejected(
                "its nonce matches neither the nonce this sign-in sent nor that nonce's SHA-256: the token was issued for another "
                    + "sign-in (a replay), or the app gave the provider a different nonce")
        }
    }

    /// Whole seconds for a message: `42 s`, or the bare number for a claim's value.
    private static func seconds(_ value: Double, unit: Bool = true) -> String {
        let whole = value.isFinite && abs(value) < 1e15 ? String(Int(value.rounded())) : String(value)
        return unit ? "\(whole) s" : whole
    }
}
