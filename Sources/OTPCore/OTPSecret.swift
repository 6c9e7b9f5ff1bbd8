internal import CCryptoOpenSSL

/// The shared secret of an HOTP or TOTP generator.
///
/// The bytes live in storage that is wiped with `OPENSSL_cleanse` when the last copy is released
/// (best effort: a copy the caller takes out with ``withUnsafeBytes(_:)`` is theirs to wipe).
/// Copies share the storage, so passing a secret around never duplicates the key material.
/// Equality is checked in constant time.
public struct OTPSecret: Sendable {
    /// The shortest secret accepted for code generation: 80 bits, as GitHub and others issue.
    public static let minimumByteCount = 10
    /// The longest secret ``random(byteCount:)`` generates or a decoder accepts.
    public static let maximumByteCount = 1024

    private let storage: SecureBytes

    /// Creates a secret from raw bytes.
    /// - Throws: ``OTPError/secretTooShort(byteCount:minimum:)`` below ``minimumByteCount`` bytes.
    public init(bytes: some Collection<UInt8>) throws(OTPError) {
        try Self.checkLength(bytes.count)
        storage = SecureBytes(count: bytes.count) { buffer in
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
            return bytes.count
        }
    }

    /// Decodes a Base32 secret (lenient by default: any case, spaces and hyphens ignored, padding
    /// optional), as authenticator apps and otpauth:// URIs carry it.
    @inlinable
    public init(base32 text: some StringProtocol, mode: Base32.DecodingMode = .lenient) throws(OTPError) {
        self = try text.withUTF8Bytes { bytes throws(OTPError) in try OTPSecret(base32UTF8: bytes, mode: mode) }
    }

    @usableFromInline
    init(base32UTF8 bytes: UnsafeBufferPointer<UInt8>, mode: Base32.DecodingMode) throws(OTPError) {
        let decoded = try SecureBytes(count: Base32.maximumDecodedCount(utf8Count: bytes.count)) { buffer throws(OTPError) in
            try Base32.decode(utf8: bytes, mode: mode, into: buffer)
        }
        try Self.checkLength(decoded.count)
        storage = decoded
    }

    /// A new secret of `byteCount` bytes from OpenSSL's CSPRNG (`RAND_bytes`).
    public static func random(byteCount: Int) throws(OTPError) -> OTPSecret {
        guard (minimumByteCount...maximumByteCount).contains(byteCount) else {
            throw .invalidSecretLength(byteCount)
        }
        var succeeded = false
        let storage = SecureBytes(count: byteCount) { buffer in
            succeeded = SecureRandom.fill(buffer)
            return byteCount
        }
        guard succeeded else { throw .cryptoFailure("RAND_bytes could not produce random bytes") }
        return OTPSecret(storage: storage)
    }

    /// A new random secret of the length recommended for `algorithm`: 20 bytes for SHA-1, 32 for
    /// SHA-256, 64 for SHA-512.
    public static func random(for algorithm: OTPAlgorithm = .sha1) throws(OTPError) -> OTPSecret {
        try random(byteCount: algorithm.recommendedSecretByteCount)
    }

    private init(storage: SecureBytes) {
        self.storage = storage
    }

    private static func checkLength(_ count: Int) throws(OTPError) {
        guard count >= minimumByteCount else { throw .secretTooShort(byteCount: count, minimum: minimumByteCount) }
        guard count <= maximumByteCount else { throw .invalidSecretLength(count) }
    }

    /// The number of bytes in the secret.
    public var byteCount: Int { storage.count }

    /// The secret in Base32, uppercase and without padding.
    public var base32: String {
        withUnsafeBytes { Base32.encode($0) }
    }

    /// Calls `body` with the secret's bytes. Do not let the pointer escape.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withUnsafeBytes(body)
    }
}

extension OTPSecret: Equatable {
    /// Compares two secrets in constant time for secrets of equal length.
    public static func == (lhs: OTPSecret, rhs: OTPSecret) -> Bool {
        guard lhs.byteCount == rhs.byteCount else { return false }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

extension OTPSecret: CustomStringConvertible, CustomDebugStringConvertible {
    /// A placeholder that never shows the key material, so a secret cannot leak through logging.
    public var description: String { "OTPSecret(\(byteCount) bytes, redacted)" }
    public var debugDescription: String { description }
}
