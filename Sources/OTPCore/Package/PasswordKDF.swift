internal import CCryptoOpenSSL

/// Keys derived from passwords through OpenSSL: scrypt for vaults (Aegis's password slots), and
/// PBKDF2-HMAC and one SHA-256 only for reading other apps' encrypted exports (2FAS, andOTP).
///
/// Callers check the cost parameters against their own bounds first: these functions spend what
/// they are asked to spend.
package enum PasswordKDF {
    /// The hash under PBKDF2's HMAC.
    package enum PBKDF2Hash: Sendable {
        case sha1, sha256
    }

    /// The digests of imported plain-digest password hashes.
    package enum Digest: Sendable {
        case md5, sha1, sha256, sha512

        var evp: OpaquePointer? {
            switch self {
            case .md5: EVP_md5()
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        }

        /// Bytes of a digest.
        package var byteCount: Int {
            switch self {
            case .md5: 16
            case .sha1: 20
            case .sha256: 32
            case .sha512: 64
            }
        }
    }

    /// Why a derivation failed.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A parameter OpenSSL cannot take at all (not a bound of the caller's).
        case invalidParameter(String)
        /// OpenSSL reported a failure, such as too little memory.
        case cryptoFailure(String)

        package var description: String {
            switch self {
            case .invalidParameter(let what): "invalid key derivation parameter: \(what)"
            case .cryptoFailure(let what): what
            }
        }
    }

    /// The memory scrypt needs for `n`, `r`, `p`: 128·r·(N + p + 2) bytes (its B, V, X and T
    /// arrays, the sum OpenSSL checks against its limit), or `nil` when that overflows.
    package static func scryptMemory(n: UInt64, r: UInt32, p: UInt32) -> UInt64? {
        let (sum, overflowSum) = n.addingReportingOverflow(UInt64(p) + 2)
        let (perBlock, overflowBlock) = UInt64(128).multipliedReportingOverflow(by: UInt64(r))
        let (total, overflowTotal) = perBlock.multipliedReportingOverflow(by: sum)
        return overflowSum || overflowBlock || overflowTotal ? nil : total
    }

    /// scrypt (RFC 7914) through `EVP_KDF` "SCRYPT", with the memory limit set to what these
    /// parameters need so that OpenSSL's smaller defaults never refuse them.
    package static func scrypt(
        password: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer,
        n: UInt64,
        r: UInt32,
        p: UInt32,
        keyByteCount: Int = 32
    ) throws(Failure) -> SecureBytes {
        guard n > 1, n & (n - 1) == 0 else { throw .invalidParameter("scrypt N must be a power of two above 1") }
        guard r > 0, p > 0, keyByteCount > 0 else { throw .invalidParameter("scrypt r, p and the key length must be positive") }
        guard let memory = scryptMemory(n: n, r: r, p: p) else { throw .invalidParameter("scrypt parameters overflow") }
        var succeeded = false
        let key = SecureBytes(count: keyByteCount) { output in
            succeeded =
                CCryptoOpenSSL_scrypt(
                    password.baseAddress?.assumingMemoryBound(to: UInt8.self), password.count,
                    salt.baseAddress?.assumingMemoryBound(to: UInt8.self), salt.count,
                    n, r, p, memory,
                    output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count
                ) == 1
            return output.count
        }
        guard succeeded else { throw .cryptoFailure("scrypt failed (N=\(n), r=\(r), p=\(p)): OpenSSL could not derive the key") }
        return key
    }

    /// PBKDF2-HMAC (RFC 8018) through OpenSSL's `PKCS5_PBKDF2_HMAC`.
    package static func pbkdf2(
        password: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer,
        iterations: Int,
        hash: PBKDF2Hash,
        keyByteCount: Int = 32
    ) throws(Failure) -> SecureBytes {
        guard iterations >= 1, iterations <= Int(Int32.max) else { throw .invalidParameter("PBKDF2 iteration count \(iterations)") }
        guard password.count <= Int(Int32.max), salt.count <= Int(Int32.max), keyByteCount > 0 else {
            throw .invalidParameter("PBKDF2 input lengths")
        }
        // OpenSSL reads nothing through a pointer with a zero length, but wants one all the same.
        var empty: UInt8 = 0
        var succeeded = false
        let key = withUnsafeMutablePointer(to: &empty) { empty in
            SecureBytes(count: keyByteCount) { output in
                let passwordBase =
                    password.baseAddress?.assumingMemoryBound(to: CChar.self) ?? UnsafeRawPointer(empty).assumingMemoryBound(to: CChar.self)
                let saltBase = salt.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty)
                succeeded =
                    PKCS5_PBKDF2_HMAC(
                        passwordBase, Int32(password.count), saltBase, Int32(salt.count), Int32(iterations),
                        hash == .sha1 ? EVP_sha1() : EVP_sha256(), Int32(output.count), output.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    ) == 1
                return output.count
            }
        }
        guard succeeded else { throw .cryptoFailure("PBKDF2 failed: OpenSSL could not derive the key") }
        return key
    }

    /// SHA-256 of the password as the key, andOTP's old backup format; wiped like any other key.
    package static func sha256(password: UnsafeRawBufferPointer) throws(Failure) -> SecureBytes {
        var empty: UInt8 = 0
        var succeeded = false
        let key = withUnsafeMutablePointer(to: &empty) { empty in
            SecureBytes(count: Int(SHA256_DIGEST_LENGTH)) { output in
                var length: UInt32 = 0
                succeeded =
                    EVP_Digest(
                        password.baseAddress ?? UnsafeRawPointer(empty), password.count,
                        output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, EVP_sha256(), nil
                    ) == 1 && length == UInt32(SHA256_DIGEST_LENGTH)
                return output.count
            }
        }
        guard succeeded else { throw .cryptoFailure("SHA-256 failed") }
        return key
    }

    /// `rounds` applications of `digest` (at least one): the first over `first ‖ second`, each
    /// next over the digest before it. What Firebase's `MD5`, `SHA1`, `SHA256` and `SHA512`
    /// imports hash, the salt and the password in the order the import says.
    package static func iteratedDigest(
        _ digest: Digest, first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer, rounds: Int
    ) throws(Failure) -> SecureBytes {
        guard let context = EVP_MD_CTX_new() else { throw .cryptoFailure("OpenSSL could not make a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var succeeded = true
        let key = SecureBytes(count: digest.byteCount) { output in
            guard let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                succeeded = false
                return output.count
            }
            var length: UInt32 = 0
            succeeded =
                EVP_DigestInit_ex(context, digest.evp, nil) == 1
                && (first.isEmpty || EVP_DigestUpdate(context, first.baseAddress, first.count) == 1)
                && (second.isEmpty || EVP_DigestUpdate(context, second.baseAddress, second.count) == 1)
                && EVP_DigestFinal_ex(context, out, &length) == 1 && Int(length) == output.count
            var round = 1
            while succeeded, round < rounds {
                succeeded = EVP_Digest(out, output.count, out, &length, digest.evp, nil) == 1 && Int(length) == output.count
                round += 1
            }
            return output.count
        }
        guard succeeded else { throw .cryptoFailure("OpenSSL could not compute the digest") }
        return key
    }

    /// HMAC under `key` of `first ‖ second` with `digest`: what Firebase's `HMAC_MD5`,
    /// `HMAC_SHA1`, `HMAC_SHA256` and `HMAC_SHA512` imports hash, the salt and the password in the
    /// order the import says. The joined message, which holds the password, is wiped after.
    package static func hmac(
        _ digest: Digest, key: UnsafeRawBufferPointer, first: UnsafeRawBufferPointer, second: UnsafeRawBufferPointer
    ) throws(Failure) -> SecureBytes {
        let message = SecureBytes(count: first.count + second.count) { output in
            if !first.isEmpty { UnsafeMutableRawBufferPointer(rebasing: output[..<first.count]).copyMemory(from: first) }
            if !second.isEmpty { UnsafeMutableRawBufferPointer(rebasing: output[first.count...]).copyMemory(from: second) }
            return output.count
        }
        var succeeded = false
        var empty: UInt8 = 0
        let code = withUnsafeMutablePointer(to: &empty) { empty in
            SecureBytes(count: digest.byteCount) { output in
                message.withUnsafeBytes { message in
                    var length: UInt32 = 0
                    succeeded =
                        HMAC(
                            digest.evp, key.baseAddress ?? UnsafeRawPointer(empty), Int32(key.count),
                            message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty), message.count,
                            output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length) != nil && Int(length) == output.count
                }
                return output.count
            }
        }
        guard succeeded else { throw .cryptoFailure("OpenSSL could not compute the HMAC") }
        return code
    }
}
