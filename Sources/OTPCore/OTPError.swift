/// An error thrown by OTPCore when its input is unusable.
///
/// Every case carries enough detail to say what was wrong; ``description`` turns it into a
/// one-line message fit for a user. No case ever carries secret material: a bad Base32 character
/// is reported on its own, with its offset, never with the rest of the secret.
public enum OTPError: Error, Hashable, Sendable {
    /// The number of digits is outside `6...10`.
    case invalidDigits(Int)
    /// The time step is shorter than one second.
    case invalidPeriod(Int64)
    /// The time is earlier than the epoch `T0`, so no time step exists for it.
    case timeBeforeEpoch(time: Int64, epoch: Int64)
    /// The secret is shorter than ``OTPSecret/minimumByteCount``.
    case secretTooShort(byteCount: Int, minimum: Int)
    /// A requested secret length is outside the supported range.
    case invalidSecretLength(Int)
    /// A drift window asks for a negative or an unreasonably large number of steps.
    case invalidWindow(behind: Int, ahead: Int)
    /// A one-time password has the wrong number of characters.
    case invalidCodeLength(expected: Int, actual: Int)
    /// A one-time password contains something other than an ASCII digit at `offset`.
    case invalidCodeCharacter(offset: Int)
    /// Base32 input contains a character outside the alphabet.
    case invalidBase32Character(Character, offset: Int)
    /// Base32 input has a length no encoder produces (1, 3 or 6 characters past a multiple of 8).
    case invalidBase32Length(Int)
    /// Base32 input has padding where padding cannot be, or too much of it.
    case invalidBase32Padding(offset: Int)
    /// Strict Base32 decoding found non-zero bits after the last whole byte (not canonical).
    case nonCanonicalBase32
    /// OpenSSL reported a failure (for example, the random generator could not be seeded).
    case cryptoFailure(String)
}

extension OTPError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidDigits(let digits):
            "invalid number of digits \(digits): use \(HOTP.digitRange.lowerBound) to \(HOTP.digitRange.upperBound)"
        case .invalidPeriod(let period):
            "invalid period \(period): the time step must be at least 1 second"
        case .timeBeforeEpoch(let time, let epoch):
            "time \(time) is before the epoch T0 = \(epoch)"
        case .secretTooShort(let byteCount, let minimum):
            "secret too short: \(byteCount) bytes, at least \(minimum) needed"
        case .invalidSecretLength(let byteCount):
            "invalid secret length \(byteCount): use \(OTPSecret.minimumByteCount) to \(OTPSecret.maximumByteCount) bytes"
        case .invalidWindow(let behind, let ahead):
            "invalid drift window (\(behind) behind, \(ahead) ahead): each side must be 0 to \(VerificationWindow.maximumSteps)"
        case .invalidCodeLength(let expected, let actual):
            "invalid code length \(actual): expected \(expected) digits"
        case .invalidCodeCharacter(let offset):
            "invalid code: character at offset \(offset) is not a digit"
        case .invalidBase32Character(let character, let offset):
            "invalid Base32 character \(Self.quoted(character)) at offset \(offset): use A-Z and 2-7"
        case .invalidBase32Length(let length):
            "invalid Base32 length \(length): no encoding produces it (the secret may be truncated)"
        case .invalidBase32Padding(let offset):
            "invalid Base32 padding at offset \(offset)"
        case .nonCanonicalBase32:
            "non-canonical Base32: the unused bits of the last character are not zero"
        case .cryptoFailure(let what):
            "OpenSSL failure: \(what)"
        }
    }

    private static func quoted(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        if scalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }) {
            return "'\(character)'"
        }
        return scalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
