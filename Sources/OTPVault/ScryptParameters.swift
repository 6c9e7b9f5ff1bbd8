/// The cost of scrypt for a password slot: N (CPU and memory), r (block size), p (parallelism).
///
/// The memory scrypt takes is about 128·r·N bytes. Files are read only with N a power of two
/// from 2^14 to 2^20, r from 8 to 32 and p from 1 to 16, checked before any key is derived, so a
/// file cannot make `totp` allocate gigabytes.
public struct ScryptParameters: Hashable, Sendable {
    /// CPU and memory cost, a power of two.
    public let n: Int
    /// Block size.
    public let r: Int
    /// Parallelism.
    public let p: Int

    /// The accepted N.
    public static let nRange = (1 << 14)...(1 << 20)
    /// The accepted r.
    public static let rRange = 8...32
    /// The accepted p.
    public static let pRange = 1...16

    /// What new passphrase slots use: N=2^16, r=8, p=1, 64 MiB. Deriving a key takes about 0.2 s
    /// on one core of a small 2-core server (OpenSSL 3.0; `openssl kdf -keylen 32 -kdfopt n:65536
    /// -kdfopt r:8 -kdfopt p:1 … SCRYPT`), which every command that unlocks the vault pays: twice
    /// the work of Aegis's default.
    public static let `default` = ScryptParameters(validated: 1 << 16, 8, 1)

    /// Aegis's own parameters (N=2^15, r=8, p=1, 32 MiB), for vaults a phone opens: higher N has
    /// made Aegis run out of memory on Android.
    public static let aegisCompatible = ScryptParameters(validated: 1 << 15, 8, 1)

    /// Parameters within the bounds files are read with.
    /// - Throws: ``VaultError/scryptParametersOutOfRange(n:r:p:)`` otherwise.
    public init(n: Int, r: Int, p: Int) throws(VaultError) {
        guard Self.nRange.contains(n), n & (n - 1) == 0, Self.rRange.contains(r), Self.pRange.contains(p) else {
            throw .scryptParametersOutOfRange(n: n, r: r, p: p)
        }
        self.init(validated: n, r, p)
    }

    private init(validated n: Int, _ r: Int, _ p: Int) {
        self.n = n
        self.r = r
        self.p = p
    }
}
