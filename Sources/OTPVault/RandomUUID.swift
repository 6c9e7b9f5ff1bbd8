package import OTPCore

/// Version 4 UUIDs from OpenSSL's CSPRNG, in the lowercase form Aegis writes (`uuid` fields).
package enum RandomUUID {
    package static func make() throws(OTPError) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard bytes.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else {
            throw .cryptoFailure("RAND_bytes could not produce a UUID")
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        var text = ""
        for (position, character) in Hex.encode(bytes).enumerated() {
            if [8, 12, 16, 20].contains(position) { text.append("-") }
            text.append(character)
        }
        return text
    }
}
