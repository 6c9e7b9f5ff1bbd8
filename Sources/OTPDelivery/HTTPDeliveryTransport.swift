package import OTPAuthentication
package import OTPOutbound
import OTPCore

/// The one HTTP exchange every HTTP sender makes (Twilio's API, the SMS and mail webhooks): a POST
/// bounded by the sender's timeout, its failures sorted into `DeliveryFailure` reasons and thrown
/// as the sender's own error.
package struct HTTPDeliveryTransport<Failure: DeliveryError>: Sendable {
    /// Enough for any gateway's error object; a longer body is cut there.
    static var bodyLimit: Int { 64 * 1024 }

    package let timeout: Duration
    package let senderName: String

    package init(timeout: Duration, senderName: String) {
        self.timeout = timeout
        self.senderName = senderName
    }

    /// POSTs `body` to `url` and returns the gateway's answer whatever its status.
    ///
    /// The whole exchange, head and body, is bounded by ``timeout``. An answer whose head arrived
    /// in time is the answer even if its body did not: the status is the gateway's decision, and
    /// a body cut short only loses its details. `secrets` are kept out of an error's detail, should
    /// the gateway's address or libcurl's description ever quote them.
    package func post(_ url: String, headers: [(name: String, value: String)], body: [UInt8], secrets: [String]) async throws(Failure)
        -> HTTPAnswer
    {
        let exchange = HTTPExchange(.post, url, headers: headers, body: body, timeout: timeout, bodyLimit: Self.bodyLimit)
        switch await exchange.perform() {
        case .success(let answer):
            return answer
        case .failure(let failure):
            throw classify(failure, secrets: secrets, target: GatewayURL.target(of: url))
        }
    }

    /// Sorts a failed exchange by what the caller can do about it.
    func classify(_ failure: HTTPExchangeFailure, secrets: [String], target: String) -> Failure {
        switch failure {
        case .timedOut, .cancelled:
            Failure(.timedOut(seconds: timeout.seconds), sender: senderName)
        case .noConnection(let detail), .brokenOff(let detail):
            Failure(.unreachable("\(target): " + Redaction.detail(detail, without: secrets)), sender: senderName)
        }
    }
}
