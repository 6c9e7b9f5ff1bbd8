import JWTKit

/// The claims of an OpenID Connect ID token that the verifier checks or returns.
///
/// Decoding never fails on a claim of the wrong type: it is recorded in ``problems`` instead, so
/// that the verifier can say which claim was wrong (jwt-kit reports any decoding failure as one
/// "malformed token"), and only after the signature is known to be the provider's.
struct IDTokenClaims: JWTPayload {
    var issuer: String?
    var subject: String?
    var audiences: [String]?
    var expiresAt: Double?
    var issuedAt: Double?
    var notBefore: Double?
    var nonce: String?
    var email: String?
    var emailVerified: Bool?
    var name: String?
    var picture: String?
    /// One line for each claim present with the wrong type, such as `exp is not a number`.
    var problems: [String] = []

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        // The one failure left: a payload that is not a JSON object at all.
        let container = try decoder.container(keyedBy: Key.self)
        var problems: [String] = []

        func value<T: Decodable>(_ name: String, _ type: T.Type, described kind: String) -> T? {
            let key = Key(name)
            // An explicit null says as much as an absent claim.
            guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return nil }
            if let value = try? container.decode(T.self, forKey: key) { return value }
            problems.append("\(name) is not \(kind)")
            return nil
        }

        issuer = value("iss", String.self, described: "a string")
        subject = value("sub", String.self, described: "a string")
        // RFC 7519 section 4.1.3: one audience may be a bare string.
        if let single = try? container.decode(String.self, forKey: Key("aud")) {
            audiences = [single]
        } else {
            audiences = value("aud", [String].self, described: "a string or an array of strings")
        }
        expiresAt = value("exp", Double.self, described: "a number of seconds")
        issuedAt = value("iat", Double.self, described: "a number of seconds")
        notBefore = value("nbf", Double.self, described: "a number of seconds")
        nonce = value("nonce", String.self, described: "a string")
        email = value("email", String.self, described: "a string")
        name = value("name", String.self, described: "a string")
        picture = value("picture", String.self, described: "a string")
        // Some providers (Amazon Cognito, older Apple tokens) send "true" and "false" as strings.
        if let flag = try? container.decode(Bool.self, forKey: Key("email_verified")) {
            emailVerified = flag
        } else if let text = value("email_verified", String.self, described: "a boolean or the string \"true\" or \"false\"") {
            switch text.lowercased() {
            case "true": emailVerified = true
            case "false": emailVerified = false
            default: problems.append("email_verified is neither a boolean nor the string \"true\" or \"false\"")
            }
        }
        self.problems = problems
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(issuer, forKey: Key("iss"))
        try container.encodeIfPresent(subject, forKey: Key("sub"))
        try container.encodeIfPresent(audiences, forKey: Key("aud"))
        try container.encodeIfPresent(expiresAt, forKey: Key("exp"))
        try container.encodeIfPresent(issuedAt, forKey: Key("iat"))
        try container.encodeIfPresent(notBefore, forKey: Key("nbf"))
        try container.encodeIfPresent(nonce, forKey: Key("nonce"))
        try container.encodeIfPresent(email, forKey: Key("email"))
        try container.encodeIfPresent(emailVerified, forKey: Key("email_verified"))
        try container.encodeIfPresent(name, forKey: Key("name"))
        try container.encodeIfPresent(picture, forKey: Key("picture"))
    }

    /// Nothing: the verifier checks the claims itself, against its own clock and settings, after
    /// jwt-kit has checked the signature.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
