internal import NIOCore

/// What a client's address is counted under by the per-address limits: an IPv4 address whole (an
/// IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64 prefix, which one
/// subscriber is commonly given whole and could otherwise walk through address by address.
package enum ClientAddress {
    /// An address written as text in one spelling (IPv4-mapped IPv6 as IPv4, IPv6 as NIO writes
    /// it), to compare addresses however they were written; `nil` for anything else.
    package static func canonical(parsing text: some StringProtocol) -> String? {
        parse(text).flatMap(canonical)
    }

    /// `address` in the spelling ``canonical(parsing:)`` gives.
    static func canonical(_ address: SocketAddress) -> String? {
        // An IPv4-mapped IPv6 address is its IPv4 address, as key(_:) counts it.
        if case .v6 = address, let mapped = key(address), !mapped.hasSuffix("/64") { return mapped }
        return address.ipAddress
    }

    static func key(_ address: SocketAddress) -> String? {
        switch address {
        case .v4:
            return address.ipAddress
        case .v6(let v6):
            var raw = v6.address.sin6_addr
            let bytes = withUnsafeBytes(of: &raw) { Array($0) }
            guard bytes.count == 16 else { return address.ipAddress }
            if bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        case .unixDomainSocket:
            return nil
        }
    }

    /// The key of an address written as text (an `X-Forwarded-For` entry); `nil` for anything
    /// that is not an IP address.
    static func key(parsing text: some StringProtocol) -> String? {
        parse(text).flatMap(key)
    }

    /// An IP address written as text, blanks around it allowed.
    private static func parse(_ text: some StringProtocol) -> SocketAddress? {
        var address = String(text.trimmingPrefix(while: \.isWhitespace))
        while address.last?.isWhitespace == true { address.removeLast() }
        guard !address.isEmpty else { return nil }
        return try? SocketAddress(ipAddress: address, port: 0)
    }
}
