public import JWTKit
package import OTPCore

/// The claims of an ID token as Firebase writes them, and as the SDKs and admin SDKs read them:
/// `exp`, `iat` and `auth_time` as numbers, `firebase.sign_in_provider` as a string, the second
/// factor's keys absent (never null) without one, and the administrator's custom claims as claims
/// of their own beside these.
public struct IDTokenClaims: JWTPayload, Equatable {
    /// What `firebase` holds.
    public struct Firebase: Codable, Sendable, Equatable {
        /// Provider id → the user's ids at that provider, and, as Firebase lists them, `email` →
        /// the user's address and `phone` → their number when they have one.
        public var identities: [String: [String]]
        /// The first factor of the sign-in (`password`, `anonymous`, `google.com`, …).
        public var signInProvider: String
        /// `totp` or `phone` when a second factor completed the sign-in.
        public var signInSecondFactor: String?
        /// The enrollment id of that second factor.
        public var secondFactorIdentifier: String?

        /// Firebase's claims of a sign-in.
        public init(
            identities: [String: [String]], signInProvider: String, signInSecondFactor: String? = nil, secondFactorIdentifier: String? = nil
        ) {
            self.identities = identities
            self.signInProvider = signInProvider
            self.signInSecondFactor = signInSecondFactor
            self.secondFactorIdentifier = secondFactorIdentifier
        }

        enum CodingKeys: String, CodingKey {
            case identities
            case signInProvider = "sign_in_provider"
            case signInSecondFactor = "sign_in_second_factor"
            case secondFactorIdentifier = "second_factor_identifier"
        }
    }

    /// `https://securetoken.google.com/<project>`.
    public var issuer: String
    /// The project id.
    public var audience: String
    /// The user's id.
    public var subject: String
    /// The user's id again, as Firebase repeats it.
    public var userID: String
    /// When the first factor signed in (Unix seconds).
    public var authTime: Int64
    /// When the token was made (Unix seconds).
    public var issuedAt: Int64
    /// When the token stops being valid (Unix seconds).
    public var expiresAt: Int64
    /// The user's address, if any.
    public var email: String?
    /// Whether that address is verified; present with an address.
    public var emailVerified: Bool?
    /// The user's phone number in E.164 (a phone identity), if any.
    public var phoneNumber: String?
    /// `anonymous` for anonymous users, as Firebase marks them.
    public var providerID: String?
    /// Firebase's own claims.
    public var firebase: Firebase
    /// The server's session of the sign-in (OpenID Connect's `sid`), which the multi-factor
    /// endpoints act for; not a credential (refresh tokens add a MAC), and unknown to Firebase,
    /// whose SDKs ignore claims they do not read.
    public var sessionID: String?
    /// The custom claims an administrator set on the account (`customAttributes`), each a
    /// top-level claim, as Firebase writes them. A name of the claims above is never written
    /// twice: the token's own claim wins.
    package var customClaims: [String: JSONValue]

    /// The claims of a token without custom claims.
    public init(
        issuer: String, audience: String, subject: String, userID: String, authTime: Int64, issuedAt: Int64, expiresAt: Int64,
        email: String?, emailVerified: Bool?, providerID: String?, firebase: Firebase, sessionID: String? = nil, phoneNumber: String? = nil
    ) {
        self.init(
            issuer: issuer, audience: audience, subject: subject, userID: userID, authTime: authTime, issuedAt: issuedAt, expiresAt: expiresAt,
            email: email, emailVerified: emailVerified, phoneNumber: phoneNumber, providerID: providerID, firebase: firebase,
            sessionID: sessionID, customClaims: [:])
    }

    /// The claims of a token with the custom claims an administrator set.
    package init(
        issuer: String, audience: String, subject: String, userID: String, authTime: Int64, issuedAt: Int64, expiresAt: Int64,
        email: String?, emailVerified: Bool?, phoneNumber: String?, providerID: String?, firebase: Firebase, sessionID: String?,
        customClaims: [String: JSONValue]
    ) {
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.userID = userID
        self.authTime = authTime
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.providerID = providerID
        self.firebase = firebase
        self.sessionID = sessionID
        self.customClaims = customClaims
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case issuer = "iss"
        case audience = "aud"
        case subject = "sub"
        case userID = "user_id"
        case authTime = "auth_time"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case email
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case providerID = "provider_id"
        case firebase
        case sessionID = "sid"
    }

    /// Any claim's name, for the custom claims.
    private struct ClaimName: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    private static let ownNames = Set(CodingKeys.allCases.map(\.rawValue))

    /// Reads a token's claims: those above by name, every other one as a custom claim.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        audience = try container.decode(String.self, forKey: .audience)
        subject = try container.decode(String.self, forKey: .subject)
        userID = try container.decode(String.self, forKey: .userID)
        authTime = try container.decode(Int64.self, forKey: .authTime)
        issuedAt = try container.decode(Int64.self, forKey: .issuedAt)
        expiresAt = try container.decode(Int64.self, forKey: .expiresAt)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        providerID = try container.decodeIfPresent(String.self, forKey: .providerID)
        firebase = try container.decode(Firebase.self, forKey: .firebase)
        sessionID = try container.decodeIfPresent(String.self, forKey: .sessionID)
        let every = try decoder.container(keyedBy: ClaimName.self)
        var custom: [String: JSONValue] = [:]
        for key in every.allKeys where !Self.ownNames.contains(key.stringValue) {
            custom[key.stringValue] = try every.decode(JSONValue.self, forKey: key)
        }
        customClaims = custom
    }

    /// Writes the claims, optional ones left out rather than null, then the custom claims.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(audience, forKey: .audience)
        try container.encode(subject, forKey: .subject)
        try container.encode(userID, forKey: .userID)
        try container.encode(authTime, forKey: .authTime)
        try container.encode(issuedAt, forKey: .issuedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(phoneNumber, forKey: .phoneNumber)
        try container.encodeIfPresent(providerID, forKey: .providerID)
        try container.encode(firebase, forKey: .firebase)
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        // The same level of the same encoder: the custom claims join the object above.
        var custom = encoder.container(keyedBy: ClaimName.self)
        for (name, value) in customClaims where !Self.ownNames.contains(name) {
            try custom.encode(value, forKey: ClaimName(stringValue: name))
        }
    }

    /// The signature is jwt-kit's to check; the times, issuer and audience are checked by
    /// ``IDTokenIssuer/verify(_:)`` against its own clock and project, with errors of its own.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
