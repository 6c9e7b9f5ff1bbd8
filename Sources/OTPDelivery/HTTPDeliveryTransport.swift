package import AsyncHTTPClient
import Glibc
package import NIOCore
package import NIOHTTP1
import NIOPosix
import OTPCore
package import OTPAuthentication
import Synchronization

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The one HTTP exchange every HTTP sender makes (Twilio's API, the SMS and mail webhooks): a POST
/// bounded by the sender's timeout, its failures sorted into `DeliveryFailure` reasons and thrown
/// as the sender's own error, and the client's lifecycle.
///
/// A class with a deinit, so that a client it created is shut down exactly once: at
/// ``shutdown()``, or when the sender holding the transport is released.
package final class HTTPDeliveryTransport<Failure: DeliveryError>: Sendable {
    /// What the gateway answered: its status and as much of its body as an error message needs.
    package struct Answer: Sendable {
        package let status: UInt
        package let body: [UInt8]

        package var isSuccess: Bool { (200..<300).contains(status) }
    }

    /// Enough for any gateway's error object; the rest of a longer body is read and dropped.
    static var bodyLimit: Int { 64 * 1024 }

    package let client: HTTPClient
    package let timeout: Duration
    package let senderName: String
    /// Whether the transport created `client` and so must shut it down; an injected client
    /// belongs to the caller.
    private let ownsClient: Bool
    private let isShutDown = Mutex(false)

    package init(client: HTTPClient?, timeout: Duration, senderName: String) {
        if let client {
            self.client = client
            self.ownsClient = false
        } else {
            self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.configuration(timeout: timeout))
            self.ownsClient = true
        }
        self.timeout = timeout
        self.senderName = senderName
    }

    deinit {
        // A sender released without shutdown() must not leave its client running: AHC would
        // crash a debug build at the client's deinit and leak its pool in a release build.
        // Shutting down does not block, and the client keeps itself alive until it is done.
        if ownsClient && !isShutDown.withLock({ $0 }) {
            client.shutdown().whenComplete { _ in }
        }
    }

    /// The settings of a client the transport creates for itself.
    package static func configuration(timeout: Duration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        // A redirected POST may be replayed as a GET (then "sent" would be a lie) or carry the
        // message to another host; gateways do not redirect their API, so a 3xx is a refusal.
        configuration.redirectConfiguration = .disallow
        configuration.timeout.connect = TimeAmount(timeout)
        // Within one send's few seconds a refused connection is an answer, not a hiccup to retry
        // until the deadline: the caller hears "unreachable" at once and the user asks again.
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Shuts down the client the transport created; does nothing for an injected client or a
    /// second time.
    package func shutdown() async throws {
        guard ownsClient else { return }
        let alreadyShutDown = isShutDown.withLock { state in
            defer { state = true }
            return state
        }
        guard !alreadyShutDown else { return }
        try await client.shutdown()
    }

    /// POSTs `body` to `url` and returns the gateway's answer whatever its status.
    ///
    /// The whole exchange, head and body, is bounded by ``timeout``: AHC's own deadline stops at
    /// the response head, so a gateway that trickles its body would otherwise hold the sign-in.
    /// `secrets` are kept out of an error's detail, should a library echo the request.
    package func post(_ url: String, headers: HTTPHeaders, body: [UInt8], secrets: [String]) async throws(Failure) -> Answer {
        var prepared = HTTPClientRequest(url: url)
        prepared.method = .POST
        prepared.headers = headers
        prepared.body = .bytes(ByteBuffer(bytes: body))

        let request = prepared
        let client = client
        let timeout = timeout
        let senderName = senderName
        // The exchange, cancelled, still reports: a head that arrived in time is the answer even
        // if its body did not.
        let outcome = await Deadline.run(within: timeout) {
            await Self.exchange(request, client: client, timeout: timeout, senderName: senderName, secrets: secrets, url: url)
        } keepLate: { result in
            if case .success = result { true } else { false }
        }
        guard let outcome else { throw Failure(.timedOut(seconds: timeout.seconds), sender: senderName) }
        return try outcome.get()
    }

    private static func exchange(
        _ request: HTTPClientRequest, client: HTTPClient, timeout: Duration, senderName: String, secrets: [String], url: String
    ) async -> Result<Answer, Failure> {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: TimeAmount(timeout))
        } catch {
            return .failure(classify(error, timeout: timeout, senderName: senderName, secrets: secrets, target: GatewayURL.target(of: url)))
        }
        var collected: [UInt8] = []
        do {
            for try await chunk in response.body {
                // Past the limit the rest is drained, not kept, so the connection stays usable.
                let room = bodyLimit - collected.count
                if room > 0 { collected += chunk.readableBytesView.prefix(room) }
            }
        } catch {
            // The status is the gateway's decision; a body cut short only loses its details.
        }
        return .success(Answer(status: response.status.code, body: collected))
    }

    /// Sorts a failed exchange by what the caller can do about it. Descriptions of NIO's and AHC's
    /// errors name hosts, ports and error numbers, never a header or a body.
    static func classify(_ error: any Error, timeout: Duration, senderName: String, secrets: [String], target: String) -> Failure {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .cancelled:
                return Failure(.timedOut(seconds: timeout.seconds), sender: senderName)
            case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return Failure(.unreachable("\(target): no connection in time"), sender: senderName)
            case .remoteConnectionClosed:
                return Failure(.unreachable("\(target): the connection closed without an answer"), sender: senderName)
            case .invalidURL, .emptyHost, .emptyScheme, .alreadyShutdown:
                return Failure(.misconfigured(String(describing: error)), sender: senderName)
            default:
                return Failure(.unreachable("\(target): \(error)"), sender: senderName)
            }
        }
        if error is CancellationError {
            return Failure(.timedOut(seconds: timeout.seconds), sender: senderName)
        }
        if let error = error as? NIOConnectionError {
            let causes =
                error.connectionErrors.map { Self.describe($0.error) } + [error.dnsAAAAError, error.dnsAError].compactMap { $0.map(Self.describe) }
            let detail = causes.isEmpty ? "no address to connect to" : Set(causes).sorted().joined(separator: "; ")
            return Failure(.unreachable("\(error.host):\(error.port): \(detail)"), sender: senderName)
        }
        if let channelError = error as? ChannelError, case .connectTimeout = channelError {
            return Failure(.unreachable("\(target): no connection in time"), sender: senderName)
        }
        return Failure(.unreachable("\(target): " + Redaction.detail(Self.describe(error), without: secrets)), sender: senderName)
    }

    /// `Connection refused (errno 111)` rather than NIO's `connection reset (error set): …`.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return "\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))" }
        return String(describing: error)
    }
}

extension TimeAmount {
    /// A Swift `Duration` as NIO's time, to the nanosecond.
    package init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension Duration {
    /// The duration in seconds, as `DeliveryFailure.timedOut` reports it.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
