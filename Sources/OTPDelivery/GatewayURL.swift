import OTPCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The URL of a gateway or webhook the senders post to, checked and named alike by all of them.
package enum GatewayURL {
    /// `string` as a gateway URL: https, or plain http to this machine's loopback only, where no
    /// network between could read the codes and credentials sent. `nil` for anything else, which
    /// the sender refuses as misconfigured.
    package static func parse(_ string: String) -> URL? {
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return nil }
        return scheme == "https" || (scheme == "http" && LoopbackHost.contains(host: host)) ? url : nil
    }

    /// What a gateway URL must be, for the refusal of one that is not.
    package static let rule = "an https URL with a host (plain http only to localhost, 127.0.0.1 or [::1])"

    /// `host:port` of `url`, which names the gateway in an error without its path or query (a
    /// webhook's query may carry a token).
    package static func target(of url: String) -> String {
        guard let parsed = URL(string: url), let host = parsed.host else { return "the gateway" }
        let port = parsed.port ?? (parsed.scheme?.lowercased() == "https" ? 443 : 80)
        return "\(host):\(port)"
    }
}
