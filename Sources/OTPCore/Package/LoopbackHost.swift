/// Whether a host name or address names this machine's loopback: `localhost` and its
/// subdomains (RFC 6761 reserves them for loopback), `127.0.0.0/8` and `::1`. A name is taken as
/// written, never resolved: what it resolves to is what an attacker's DNS decides.
package enum LoopbackHost {
    /// Whether `host` (a name or an address, without port or brackets) is loopback.
    package static func contains(host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether `authority` (`host` or `host:port`, an IPv6 address in brackets) names loopback.
    package static func contains(authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            host = host[host.index(after: host.startIndex)..<end]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return contains(host: String(host))
    }
}
