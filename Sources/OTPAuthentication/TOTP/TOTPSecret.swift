public import Foundation
import OTPCore
import OTPURI

/// A new TOTP shared secret, returned once by ``TOTPMultiFactorGenerator/generateSecret(with:)`` to
/// be shown to the user (as text or as a QR code) and then passed to
/// ``TOTPMultiFactorGenerator/assertionForEnrollment(with:oneTimePassword:)``.
///
/// This is the only place a secret leaves the service. Its description is redacted.
public final class TOTPSecret: Sendable, CustomStringConvertible {
    let secret: OTPSecret
    /// The pending enrollment's id (Firebase's `totpSessionInfo.sessionInfo`), for a server that
    /// finalizes in a later request with
    /// ``TOTPMultiFactorGenerator/assertionForEnrollment(withSessionInfo:oneTimePassword:)``.
    /// Only its user can finalize it.
    public let sessionInfo: String
    let opener: any OTPAppOpener

    /// The HMAC hash function's name: `"SHA1"`.
    public let hashingAlgorithm: String
    /// The number of digits of each code: 6.
    public let codeLength: Int
    /// The length of a time step in seconds: 30.
    public let codeIntervalSeconds: Int
    /// The last second at which the enrollment may be finalized, in Unix seconds.
    public let enrollmentCompletionDeadlineTime: Int64

    init(
        secret: OTPSecret,
        sessionInfo: String,
        hashingAlgorithm: String,
        codeLength: Int,
        codeIntervalSeconds: Int,
        deadline: Int64,
        opener: any OTPAppOpener
    ) {
        self.secret = secret
        self.sessionInfo = sessionInfo
        self.hashingAlgorithm = hashingAlgorithm
        self.codeLength = codeLength
        self.codeIntervalSeconds = codeIntervalSeconds
        self.enrollmentCompletionDeadlineTime = deadline
        self.opener = opener
    }

    /// The last moment at which the enrollment may be finalized.
    public var enrollmentCompletionDeadline: Date {
        Date(timeIntervalSince1970: TimeInterval(enrollmentCompletionDeadlineTime))
    }

    /// The shared secret in Base32 (uppercase, no padding), for typing into an authenticator app.
    public func sharedSecretKey() -> String {
        secret.base32
    }

    /// The otpauth:// URL to show as a QR code, exactly as Firebase builds it:
    /// `otpauth://totp/{issuer}:{accountName}?secret={key}&issuer={issuer}&algorithm=SHA1&digits=6`,
    /// or an empty string when the algorithm is missing or the code length is not positive. Where
    /// Firebase would emit an invalid URI (a space or `&` in a name), the parts are escaped per RFC 3986.
    public func generateQRCodeURL(withAccountName accountName: String, issuer: String) -> String {
        OTPAuthURI.firebaseQRCodeURL(
            sharedSecretKey: sharedSecretKey(),
            accountName: accountName,
            issuer: issuer,
            hashingAlgorithm: hashingAlgorithm,
            codeLength: codeLength
        )
    }

    /// Hands `qrCodeURL` to the configured ``OTPAppOpener`` (by default `xdg-open`), so the user's
    /// authenticator app can take the secret; returns whether anything handled it.
    @discardableResult
    public func openInOTPApp(withQRCodeURL qrCodeURL: String) -> Bool {
        opener.open(qrCodeURL)
    }

    public var description: String {
        "TOTPSecret(\(hashingAlgorithm), \(codeLength) digits, \(codeIntervalSeconds) s, secret redacted)"
    }
}
