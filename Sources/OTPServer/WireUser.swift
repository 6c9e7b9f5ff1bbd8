internal import OTPAuthentication

/// A user as `accounts:lookup` answers it (Firebase's `UserInfo`): times as strings of
/// milliseconds, as iOS parses them; `passwordHash` the redacted sentinel for password users,
/// which iOS and JS test for; absent keys rather than nulls.
struct WireUser: Encodable {
    struct ProviderUserInfo: Encodable {
        var providerId: String
        var rawId: String
        var federatedId: String
        var email: String?
        var displayName: String?
        var phoneNumber: String?
    }

    /// Base64 of "REDACTED", what Firebase sends in place of a hash.
    static let redactedPasswordHash = "UkVEQUNURUQ="

    var localId: String
    var email: String?
    var emailVerified: Bool
    var displayName: String?
    var photoUrl: String?
    /// The number of the `phone` identity, if any.
    var phoneNumber: String?
    var disabled: Bool
    var passwordHash: String?
    var createdAt: String
    var lastLoginAt: String?
    /// Seconds, as a string: tokens issued before it are revoked (firebase-admin's
    /// `tokens_valid_after_timestamp`, which `verify_id_token(check_revoked=True)` compares).
    var validSince: String?
    var providerUserInfo: [ProviderUserInfo]
    /// Left out for a user without second factors.
    var mfaInfo: [WireMultiFactorInfo]?
    /// The user's passkeys (Firebase's `passkeyInfo`); left out for a user without.
    var passkeyInfo: [Wire.PasskeyInfo]?
    /// The administrator's custom claims, one JSON object serialized; left out when there are none.
    var customAttributes: String?

    init(_ details: AccountDetails, factors: [MultiFactorInfo] = [], passkeys: [PasskeyInfo] = []) {
        let account = details.account
        localId = account.id
        email = account.email
        emailVerified = account.isEmailVerified
        displayName = account.displayName
        photoUrl = account.photoURL
        phoneNumber = details.providerData.first { $0.providerID == PhoneAuthProvider.id }?.phoneNumber
        disabled = account.isDisabled
        passwordHash = account.passwordHash == nil ? nil : Self.redactedPasswordHash
        createdAt = String(account.createdAt * 1000)
        lastLoginAt = account.lastSignInAt.map { String($0 * 1000) }
        validSince = account.tokensValidAfter.map { String($0) }
        providerUserInfo = details.providerData.map { identity in
            ProviderUserInfo(
                providerId: identity.providerID, rawId: identity.providerUID, federatedId: identity.providerUID, email: identity.email,
                displayName: identity.displayName, phoneNumber: identity.phoneNumber)
        }
        let listed = factors.compactMap(WireMultiFactorInfo.init)
        mfaInfo = listed.isEmpty ? nil : listed
        passkeyInfo = passkeys.isEmpty ? nil : passkeys.map(Wire.PasskeyInfo.init)
        customAttributes = account.customAttributes
    }
}
