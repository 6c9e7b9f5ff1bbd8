package import OTPAuthentication

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A URL of the operator's that messages are POSTed to as JSON: what the SMS and the mail webhook
/// share. The URL and the headers are checked when it is made; a send is one POST whose 2xx answer
/// means accepted, and whose other answers are refusals with the status and the answer's first
/// line, the message cut out of it.
package struct JSONWebhook<Failure: DeliveryError>: Sendable {
    /// Where the messages are POSTed.
    package let url: String
    /// How long one message may take, connection and answer together.
    package let timeout: Duration

    private let headers: [(name: String, value: String)]
    private let transport: HTTPDeliveryTransport<Failure>

    /// - Throws: `Failure` (misconfigured) for a URL that is not https with a host (or http to
    ///   loopback), a malformed header, or a timeout that is not positive.
    package init(
        url: String, headers: [(name: String, value: String)], timeout: Duration, senderName: String
    ) throws(Failure) {
        func misconfigured(_ detail: String) -> Failure { Failure(.misconfigured(detail), sender: senderName) }
        guard GatewayURL.parse(url) != nil else {
            throw misconfigured("the URL \(url.debugDescription) is not \(GatewayURL.rule): the messages hold the codes")
        }
        var fields: [(name: String, value: String)] = []
        for (name, value) in headers {
            // A line break in a value would let it forge more headers. Scalars, not Characters:
            // "\r\n" is one Character, equal to neither "\r" nor "\n".
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenScalar),
                !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { throw misconfigured("the header \(name.debugDescription) has a malformed name or value") }
            if name.lowercased() != "content-type" { fields.append((name, value)) }
        }
        fields.append(("Content-Type", "application/json"))
        guard timeout > .zero else { throw misconfigured("the timeout must be positive") }
        self.url = url
        self.timeout = timeout
        self.headers = fields
        self.transport = HTTPDeliveryTransport(timeout: timeout, senderName: senderName)
    }

    /// POSTs `message` as JSON and returns the status of the webhook's 2xx answer.
    ///
    /// - Parameter secrets: What no error may quote: the message's text, its code, its link.
    /// - Throws: `Failure` rejected for any other status, timed out or unreachable.
    package func post(_ message: some Encodable, secrets: [String]) async throws(Failure) -> Int {
        let body: [UInt8]
        do {
            body = Array(try JSONEncoder().encode(message))
        } catch {
            // Strings always encode; this only keeps the typed throw honest.
            throw Failure(.misconfigured("the message could not be encoded as JSON"), sender: transport.senderName)
        }
        let answer = try await transport.post(url, headers: headers, body: body, secrets: secrets)
        guard answer.isSuccess else {
            let detail = Redaction.detail(Redaction.firstLine(of: answer.body), without: secrets)
            throw Failure(.rejected("HTTP \(answer.status)" + (detail.isEmpty ? "" : ": \(detail)")), sender: transport.senderName)
        }
        return answer.status
    }

    /// A header name's characters (RFC 9110's token).
    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
    }
}
