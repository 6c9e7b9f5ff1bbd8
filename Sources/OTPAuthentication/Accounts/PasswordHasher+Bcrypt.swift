internal import CCrypt
internal import OTPCore

// Hashes imported with bcrypt (Firebase's BCRYPT): the crypt string itself, `$2b$12$…`, which
// carries its cost and salt. Checked by libxcrypt's crypt_r rather than by code of our own.
extension PasswordHasher {
    /// The costs an imported bcrypt hash may have: each step doubles a check's work, and a
    /// sign-in pays one.
    public static let bcryptCosts = 4...15

    /// The stored form of a bcrypt hash made elsewhere: the crypt string, as `$2a$`, `$2b$` or
    /// `$2y$`, its cost and its 53 characters of salt and hash.
    /// - Throws: ``PasswordHashError/unusableImport(_:)`` for anything else, or a cost outside
    ///   ``bcryptCosts``.
    public static func bcryptHash(_ encoded: String) throws(PasswordHashError) -> String {
        guard isBcrypt(encoded) else { throw .unusableImport("no bcrypt crypt string ($2b$COST$ and 53 characters)") }
        guard let cost = Int(encoded.dropFirst(4).prefix(2)), bcryptCosts.contains(cost) else {
            throw .unusableImport("a bcrypt cost outside \(bcryptCosts.lowerBound) to \(bcryptCosts.upperBound)")
        }
        return encoded
    }

    static func isBcrypt(_ encoded: String) -> Bool {
        let bytes = Array(encoded.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"), [UInt8]("aby".utf8).contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$")
        else { return false }
        let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return bytes[4...5].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && bytes[7...].allSatisfy(alphabet.contains)
    }

    static func verifyBcrypt(_ password: String, against encoded: String) -> Verification {
        guard (try? bcryptHash(encoded)) != nil else { return .unusableHash }
        // crypt_data is large (tens of kilobytes): on the heap, and wiped after.
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(password, encoded, data) else { return .unusableHash }
        let computed = Array(String(cString: result).utf8)
        // crypt_r answers a failure as a string starting with "*".
        guard computed.first != UInt8(ascii: "*") else { return .unusableHash }
        return ConstantTime.equal(computed, Array(encoded.utf8)) ? .matches(needsRehash: true) : .doesNotMatch
    }
}
