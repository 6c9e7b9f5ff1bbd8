public import OTPCore
public import OTPURI

/// One account in a vault: its key URI model and the identity that survives renames.
///
/// For HOTP the account's counter is the counter of the *next* code, as Aegis, 2FAS, andOTP and
/// Google Authenticator store it: printing a code uses it and stores it plus one.
public struct VaultEntry: Equatable, Sendable, Identifiable {
    /// The entry's UUID (Aegis's `uuid`, lowercase), stable across renames and saves.
    public let id: String
    /// The account: kind, issuer, account name, secret, algorithm, digits, period or counter.
    public var account: OTPAuthURI
    /// The free-text note Aegis keeps with an entry, carried through unchanged.
    public var note: String

    /// Creates an entry; `id` defaults to a new random UUID.
    /// - Throws: `OTPError.cryptoFailure` when the CSPRNG fails to make the UUID.
    public init(id: String? = nil, account: OTPAuthURI, note: String = "") throws(OTPError) {
        if let id {
            self.id = id
        } else {
            self.id = try RandomUUID.make()
        }
        self.account = account
        self.note = note
    }
}
