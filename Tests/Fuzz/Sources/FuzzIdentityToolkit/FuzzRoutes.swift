import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The routes' responder, called directly: a request in, the status, headers and whole body out,
/// as the HTTP server would write them, without a channel (the router test framework makes one per
/// request, which is most of what a request would cost here).
struct FuzzRoutes: Sendable {
    struct Answer {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    let responder: RouterResponder<FuzzContext>
    static let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: ByteBuffer) async throws -> Answer {
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path, headerFields: headers),
            body: RequestBody(buffer: body))
        let context = FuzzContext(source: FuzzContext.Source(logger: Self.logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            // What Hummingbird's server does with an error a route lets through.
            response = try error.response(from: request, context: context)
        }
        var collector = BodyCollector()
        try await response.body.write(collector)
        return Answer(status: response.status, headers: response.headers, body: collector.buffer.buffer)
    }
}

/// A request context with the loopback address as the client's, as requests from a local test client have.
struct FuzzContext: RequestContext, RemoteAddressRequestContext {
    struct Source: RequestContextSource {
        let logger: Logger
    }

    var coreContext: CoreRequestContextStorage
    var remoteAddress: SocketAddress? { try? SocketAddress(ipAddress: "127.0.0.1", port: 0) }

    init(source: Source) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}

/// Collects a response body into one buffer.
struct BodyCollector: ResponseBodyWriter {
    final class Box {
        var buffer = ByteBuffer()
    }

    let buffer = Box()

    func write(_ buffer: ByteBuffer) async throws {
        var part = buffer
        self.buffer.buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
