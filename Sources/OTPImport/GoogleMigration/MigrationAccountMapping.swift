import Foundation
import OTPCore
import OTPURI

/// One account of a migration payload to an `OTPAuthURI` and back, with Aegis's mapping
/// (`GoogleAuthInfo.parseExportUri`, AUTHENTICATOR-FORMATS.md §2.1).
enum MigrationAccountMapping {
    typealias Parameters = Otpkit_Googleauth_MigrationPayload.OtpParameters

    /// The only period the format can carry: it has no period field.
    static let period: Int64 = 30

    /// What the entry calls itself, for a skip report; never the secret.
    static func label(of parameters: Parameters) -> String? {
        if parameters.issuer.isEmpty { return parameters.name.isEmpty ? nil : parameters.name }
        return "\(parameters.issuer):\(parameters.name)"
    }

    static func account(from parameters: Parameters) -> EntryConverter.Outcome {
        let algorithm: OTPAlgorithm
        switch parameters.algorithm {
        case .unspecified, .sha1: algorithm = .sha1
        case .sha256: algorithm = .sha256
        case .sha512: algorithm = .sha512
        case .md5: return .skipped(.unsupportedAlgorithm("MD5"))
        case .UNRECOGNIZED(let value): return .skipped(.unsupportedAlgorithm("number \(value)"))
        }
        let digits: Int
        switch parameters.digits {
        case .unspecified, .six: digits = 6
        case .eight: digits = 8
        case .UNRECOGNIZED(let value):
            return .skipped(.invalidEntry("the digit count number \(value) is unknown: Google Authenticator exports 6 or 8 digits"))
        }
        let kind: OTPAuthURI.Kind
        switch parameters.type {
        case .unspecified, .totp: kind = .totp
        case .hotp: kind = .hotp
        case .UNRECOGNIZED(let value): return .skipped(.unsupportedType("number \(value)"))
        }
        guard !parameters.secret.isEmpty else {
            return .skipped(.invalidEntry("the secret is empty: export the account from Google Authenticator again"))
        }
        if kind == .hotp, parameters.counter < 0 {
            return .skipped(.invalidEntry("invalid counter \(parameters.counter): use a number from 0 up"))
        }
        let secret: OTPSecret
        do {
            secret = try OTPSecret(bytes: parameters.secret)
        } catch {
            return .skipped(.invalidEntry("invalid secret: \(error)"))
        }
        var issuer = parameters.issuer
        var name = parameters.name
        // Only without an issuer: with one, the name is kept as Google Authenticator wrote it, often
        // "Issuer:account" again (Aegis does the same), since stripping would change a name that
        // happens to start with the issuer and a colon. OTPAuthURI drops the spaces after the colon.
        if issuer.isEmpty, let colon = name.firstIndex(of: ":") {
            issuer = String(name[..<colon])
            name = String(name[name.index(after: colon)...])
        }
        do {
            let account = try OTPAuthURI(
                kind: kind,
                issuer: issuer,
                accountName: name,
                secret: secret,
                algorithm: algorithm,
                digits: digits,
                period: period,
                counter: kind == .hotp ? UInt64(parameters.counter) : nil
            )
            return .account(account)
        } catch {
            return .skipped(.invalidEntry("\(error)"))
        }
    }

    /// The payload entry of an account, or why the format cannot carry it.
    enum ExportOutcome {
        case parameters(Parameters)
        case skipped(SkipReason)
    }

    static func parameters(for account: OTPAuthURI) -> ExportOutcome {
        let isSteam = account.additionalParameters.contains {
            $0.name.lowercased() == "encoder" && $0.value.lowercased() == "steam"
        }
        if isSteam { return .skipped(.steam) }
        var parameters = Parameters()
        switch account.digits {
        case 6: parameters.digits = .six
        case 8: parameters.digits = .eight
        default:
            return .skipped(.notExportable("\(account.digits) digits: Google Authenticator exports carry 6 or 8 digits only"))
        }
        switch account.kind {
        case .totp:
            guard account.period == period else {
                return .skipped(.notExportable("a period of \(account.period) seconds: Google Authenticator exports carry 30 seconds only"))
            }
            parameters.type = .totp
        case .hotp:
            let counter = account.counter ?? 0
            guard counter <= UInt64(Int64.max) else {
                return .skipped(.notExportable("the counter \(counter) is larger than Google Authenticator exports carry"))
            }
            parameters.type = .hotp
            parameters.counter = Int64(counter)
        }
        switch account.algorithm {
        case .sha1: parameters.algorithm = .sha1
        case .sha256: parameters.algorithm = .sha256
        case .sha512: parameters.algorithm = .sha512
        }
        parameters.secret = account.secret.withUnsafeBytes { Data($0) }
        parameters.name = account.accountName
        parameters.issuer = account.issuer ?? ""
        return .parameters(parameters)
    }
}
