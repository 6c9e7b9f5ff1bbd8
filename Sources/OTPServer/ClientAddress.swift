internal import NIOCore

/// What a client's address is counted under by the per-address limits: an IPv4 address whole (an
/// IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address by its /64 prefix, which one
/// subscriber is commonly given whole and could otherwise walk through address by address.
enum ClientAddress {
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
        let trimmed = text.trimmingPrefix(while: \.isWhitespace)
        var address = String(trimmed)
        while address.last?.isWhitespace == true { address.removeLast() }
        guard !address.isEmpty, let parsed = try? SocketAddress(ipAddress: address, port: 0) else { return nil }
        return key(parsed)
    }
}
