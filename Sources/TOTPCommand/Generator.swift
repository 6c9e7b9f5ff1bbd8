internal import OTPCore

/// A ready generator and the moment (TOTP) or counter (HOTP) a command works at.
enum Generator {
    case totp(TOTP, time: Int64)
    case hotp(HOTP, counter: UInt64)
}
