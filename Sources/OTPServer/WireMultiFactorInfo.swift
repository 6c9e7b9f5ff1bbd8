internal import Foundation
internal import OTPAuthentication

/// An `mfaInfo` entry (Identity Toolkit's `MfaEnrollment`): `phoneInfo` for a phone factor,
/// `totpInfo: {}` for a TOTP factor (the SDKs type a factor by which key is present), `enrolledAt`
/// in RFC 3339 with milliseconds as iOS parses it, `displayName` left out when there is none.
struct WireMultiFactorInfo: Encodable {
    struct TOTPInfo: Encodable {}
    /// OTPKit's own: a passkey factor.
    struct WebAuthnInfo: Encodable {}

    /// The header (`X-OTPKit-Factor-Kinds`, lowercase as field names compare) by which a client says it knows OTPKit's passkey factors (`webauthn` among its
    /// comma-separated kinds): only then are they listed, as Firebase's JS SDK fails on an entry
    /// of a kind it does not know (`../shared/PASSKEYS.md`, finding 6).
    static let kindsHeader = "x-otpkit-factor-kinds"

    /// Whether the request being answered listed `webauthn` in ``kindsHeader``.
    @TaskLocal static var listsPasskeyFactors = false

    var mfaEnrollmentId: String
    var displayName: String?
    var enrolledAt: String
    var phoneInfo: String?
    var totpInfo: TOTPInfo?
    var webauthnInfo: WebAuthnInfo?

    /// The entry of `info`; its phone number as `info` has it (masked in a sign-in's hints).
    /// `nil` for a passkey factor unless the request said it knows them (``listsPasskeyFactors``).
    init?(_ info: MultiFactorInfo) {
        mfaEnrollmentId = info.uid
        displayName = info.displayName
        enrolledAt = Self.timestamp(info.enrollmentTime)
        switch info.kind {
        case .totp: totpInfo = TOTPInfo()
        case .phone: phoneInfo = info.phoneNumber
        case .webauthn:
            guard Self.listsPasskeyFactors else { return nil }
            webauthnInfo = WebAuthnInfo()
        // Neither is ever listed: recovery codes are no enrolled factor, and every enrolled factor has a kind.
        case .recoveryCode, nil: break
        }
    }

    /// `2026-11-23T12:34:56.000Z`: the emulator's form, which JS, iOS and admin-node all read.
    static func timestamp(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
