/// Email addresses as accounts key them.
///
/// Lower-cased whole, as Firebase compares them, after trimming surrounding white space. Checked
/// for the shape every deliverable address has — one `@`, a non-empty local part, a domain with a
/// dot and no empty label, no white space or control characters, at most 254 bytes (RFC 5321) —
/// rather than against RFC 5322's full grammar, which accepts forms no mail server delivers.
public enum EmailAddress {
    /// The normalized address, or `nil` when `text` is not an address.
    public static func normalized(_ text: String) -> String? {
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        let address = String(trimmed).lowercased()
        guard !address.isEmpty, address.utf8.count <= 254 else { return nil }
        guard !address.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return nil }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return nil }
        return address
    }
}
