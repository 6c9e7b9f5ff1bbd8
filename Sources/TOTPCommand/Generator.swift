internal import OTPCore

/// A ready generator and the moment (TOTP) or counter (HOTP) a command works at.
enum Generator {
    /// Time-based; `fixedTime` is true when the time came from `--time` rather than the clock.
    case totp(TOTP, time: Int64, fixedTime: Bool)
    case hotp(HOTP, counter: UInt64)

    var digits: Int {
        switch self {
        case .totp(let totp, _, _): totp.digits
        case .hotp(let hotp, _): hotp.digits
        }
    }
}
