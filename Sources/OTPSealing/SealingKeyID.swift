/// The public fingerprint of a ``SealingKey``, stored beside every value sealed under it.
///
/// It is the first 8 bytes of HMAC-SHA256(key, "OTPKit sealing key id v1"): derived, so operators
/// name nothing and cannot mislabel a key; one-way, so it reveals nothing about the key; and long
/// enough that two keys in one keyring never share an id.
public struct SealingKeyID: Hashable, Sendable {
    /// The fingerprint's length in bytes.
    public static let byteCount = 8

    /// The fingerprint as a big-endian integer.
    public let rawValue: UInt64

    /// Wraps a fingerprint read back from storage.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    init(bytes: some Collection<UInt8>) {
        rawValue = bytes.prefix(Self.byteCount).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The fingerprint's bytes, big-endian.
    public var bytes: [UInt8] {
        (0..<Self.byteCount).map { UInt8(truncatingIfNeeded: rawValue >> (56 - 8 * UInt64($0))) }
    }

    /// Reads the 16-character lowercase hexadecimal form that ``description`` prints.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 2 * Self.byteCount, let value = UInt64(hex, radix: 16) else { return nil }
        rawValue = value
    }
}

extension SealingKeyID: CustomStringConvertible {
    /// The fingerprint as 16 lowercase hexadecimal characters.
    public var description: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 2 * Self.byteCount - digits.count) + digits
    }
}
