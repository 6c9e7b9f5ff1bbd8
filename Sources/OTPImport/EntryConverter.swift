import OTPCore
import OTPURI

/// Turns the fields of one JSON export entry into an account, or the reason it is skipped.
///
/// Every JSON format names the same fields differently, but the rules are shared: which types
/// are skipped, how the algorithm and secret are read, and that a bad entry never stops the
/// rest of the import.
struct EntryConverter {
    /// The entry's OTP type as the export writes it, in any letter case (`TOTP` in andOTP and 2FAS,
    /// `totp` in Aegis): `totp`, `hotp`, `steam`, `motp` or another, which is skipped.
    var type: String
    var issuer: String?
    var accountName: String
    var secret: String
    var algorithm: String?
    var digits: Int?
    var period: Int?
    var counter: Int?

    /// What the export calls the entry, for the skip report.
    var label: String {
        guard let issuer, !issuer.isEmpty else { return accountName }
        return "\(issuer):\(accountName)"
    }

    /// An account, or why there is none.
    enum Outcome {
        case account(OTPAuthURI)
        case skipped(SkipReason)
    }

    func convert() -> Outcome {
        let kind: OTPAuthURI.Kind
        switch type.lowercased() {
        case "totp": kind = .totp
        case "hotp": kind = .hotp
        case "steam": return .skipped(.steam)
        case "motp": return .skipped(.mOTP)
        default: return .skipped(.unsupportedType(type))
        }
        let algorithmName = algorithm ?? OTPAlgorithm.sha1.rawValue
        // OTPAlgorithm's lenient names accept `sha-256` too; an app writing MD5 for a TOTP entry
        // gets a skip rather than Aegis's silent SHA1, which would make wrong codes if it meant it.
        guard let algorithm = OTPAlgorithm(name: algorithmName) else { return .skipped(.unsupportedAlgorithm(algorithmName)) }
        let decoded: OTPSecret
        do {
            // Lenient: andOTP pads with `=`, 2FAS users type spaces and hyphens.
            decoded = try OTPSecret(base32: secret, mode: .lenient)
        } catch {
            return .skipped(.invalidEntry("invalid secret: \(error)"))
        }
        if kind == .hotp, let counter, counter < 0 {
            return .skipped(.invalidEntry("invalid counter \(counter): use a number from 0 up"))
        }
        do {
            let account = try OTPAuthURI(
                kind: kind,
                issuer: issuer,
                accountName: accountName,
                secret: decoded,
                algorithm: algorithm,
                digits: digits ?? OTPAuthURI.defaultDigits,
                period: Int64(period ?? Int(OTPAuthURI.defaultPeriod)),
                // An app may leave out the counter of a new HOTP entry: it starts at 0.
                counter: kind == .hotp ? UInt64(counter ?? 0) : nil
            )
            return .account(account)
        } catch {
            return .skipped(.invalidEntry("\(error)"))
        }
    }
}
