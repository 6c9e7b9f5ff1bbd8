internal import OTPCore

/// The shape of recovery codes: how they are drawn, shown and read back.
///
/// Ten codes a set, each ten characters of Crockford's Base32 (`0–9 a–z` without `i l o u`), 50
/// bits from OpenSSL's CSPRNG, shown in two groups of five (`k3m9q-7xw2c`). Reading back forgives
/// what people do when they copy a code by hand: any case, spaces and hyphens anywhere, and the
/// letters Crockford's alphabet leaves out for looking like digits (`o` is `0`, `i` and `l` are `1`).
enum RecoveryCodes {
    static let count = 10
    static let length = 10
    static let groupLength = 5
    /// Literal rather than a stored array: no lazy initialization at each use.
    static var alphabet: StaticString { "0123456789abcdefghjkmnpqrstvwxyz" }

    /// A new set of codes, formatted for reading; `nil` when OpenSSL's generator fails.
    static func generate() -> [String]? {
        var codes: [String] = []
        for _ in 0..<count {
            var bytes = [UInt8](repeating: 0, count: length)
            guard bytes.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else { return nil }
            // 256 is a multiple of 32: the low five bits of a uniform byte are uniform.
            let characters = alphabet.withUTF8Buffer { alphabet in bytes.map { Character(Unicode.Scalar(alphabet[Int($0 & 31)])) } }
            _ = bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
            codes.append(String(characters.prefix(groupLength)) + "-" + String(characters.dropFirst(groupLength)))
        }
        return codes
    }

    /// The canonical form of a code as typed (ten lowercase characters of the alphabet), or `nil`
    /// when it cannot be a recovery code.
    static func canonical(_ typed: String) -> String? {
        var result = ""
        for character in typed.lowercased() where character != "-" && !character.isWhitespace {
            switch character {
            case "o": result.append("0")
            case "i", "l": result.append("1")
            default:
                guard let ascii = character.asciiValue,
                    alphabet.withUTF8Buffer({ $0.contains(ascii) })
                else { return nil }
                result.append(character)
            }
        }
        return result.count == length ? result : nil
    }

    /// What a code's digest is bound to: its purpose and its user.
    static func digestContext(userID: String) -> String {
        "recovery code\u{0}\(userID)"
    }

    /// The failure counter of a user's recovery codes: a key no enrollment id can take (ids have
    /// no colon).
    static func failureKey(userID: String) -> String {
        "recovery:\(userID)"
    }
}
