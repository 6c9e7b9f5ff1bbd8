/// What a server answered an ``HTTPExchange``: its final status (never an interim 1xx), the
/// header fields of that answer, and its body up to the exchange's limit.
package struct HTTPAnswer: Sendable {
    /// How the body ended.
    package enum Ending: Sendable, Equatable {
        /// All of it arrived.
        case complete
        /// It was longer than the exchange's body limit; ``HTTPAnswer/body`` is its first part.
        case overLimit
        /// It broke off (the timeout, the connection closed, malformed framing).
        case brokenOff(HTTPExchangeFailure)
    }

    package let status: Int
    /// The answer's header section as received, one field a line.
    package let head: [UInt8]
    package let body: [UInt8]
    package let ending: Ending

    package var isSuccess: Bool { (200..<300).contains(status) }

    /// Every value of the header field `name` (case-insensitive), in order.
    package func values(of name: String) -> [String] {
        let wanted = name.lowercased()
        return String(decoding: head, as: UTF8.self).split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == wanted else { return nil }
            return String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
        }
    }
}
