public import NIOCore
public import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1, started by a test: it records every request exactly as
/// it arrived and answers each with the reply the test set, after an optional delay.
///
/// NIO rather than a Python server: it is already in the graph through async-http-client, starts
/// in-process in a millisecond on a port the kernel picks, and the test reads the recorded
/// requests directly instead of parsing a child's output.
public final class LoopbackHTTPServer: Sendable {
    /// What the server answers.
    public struct Reply: Sendable {
        public var status: HTTPResponseStatus
        public var body: String
        public var contentType: String
        /// Headers sent besides Content-Type and Content-Length (`Cache-Control`, …).
        public var headers: [(name: String, value: String)]
        /// How long the server waits before answering: past the client's timeout, a slow gateway.
        public var delay: Duration
        /// Announces more body than it sends and never ends the response: a gateway that stalls
        /// after its status line.
        public var stallsBody: Bool

        public init(
            status: HTTPResponseStatus, body: String = "", contentType: String = "application/json",
            headers: [(name: String, value: String)] = [], delay: Duration = .zero, stallsBody: Bool = false
        ) {
            self.status = status
            self.body = body
            self.contentType = contentType
            self.headers = headers
            self.delay = delay
            self.stallsBody = stallsBody
        }
    }

    /// One request as received.
    public struct Request: Sendable {
        public let method: HTTPMethod
        public let uri: String
        public let headers: HTTPHeaders
        public let body: [UInt8]

        public var bodyText: String { String(decoding: body, as: UTF8.self) }

        /// The URI without its query.
        public var path: String { String(uri.prefix { $0 != "?" }) }

        /// The one value of `name`; nil when absent, a test failure waiting to happen when repeated.
        public func header(_ name: String) -> String? {
            let values = headers[name]
            return values.count == 1 ? values[0] : nil
        }
    }

    /// Chooses the reply to one request, while the server runs.
    public typealias Responder = @Sendable (Request) -> Reply

    public let port: Int
    private let channel: any Channel
    private let recorder: Recorder

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var requests: [Request] { recorder.requests.withLock { $0 } }

    /// How many requests arrived for `path` (the URI without its query).
    public func requestCount(path: String) -> Int {
        recorder.requests.withLock { requests in requests.count(where: { $0.path == path }) }
    }

    private init(channel: any Channel, recorder: Recorder) {
        self.channel = channel
        self.recorder = recorder
        self.port = channel.localAddress!.port!
    }

    /// A server answering every request with `reply` until ``setReply(_:)`` changes it.
    public static func start(replying reply: Reply) async throws -> LoopbackHTTPServer {
        try await start { _ in reply }
    }

    /// A server answering each request with what `responder` returns for it, called on NIO's
    /// event loop after the request is recorded.
    public static func start(responder: @escaping Responder) async throws -> LoopbackHTTPServer {
        let recorder = Recorder(responder: responder)
        let channel = try await bootstrap(recorder: recorder).bind(host: "127.0.0.1", port: 0).get()
        return LoopbackHTTPServer(channel: channel, recorder: recorder)
    }

    /// Answers every later request with `reply`.
    public func setReply(_ reply: Reply) {
        setResponder { _ in reply }
    }

    /// Answers every later request with what `responder` returns for it.
    public func setResponder(_ responder: @escaping Responder) {
        recorder.responder.withLock { $0 = responder }
    }

    /// A loopback port that nothing listens on: bound by a server that is closed again at once,
    /// so connecting to it is refused.
    public static func closedPort() async throws -> Int {
        let server = try await start(replying: Reply(status: .ok))
        try await server.stop()
        return server.port
    }

    public func stop() async throws {
        try await channel.close()
    }

    private static func bootstrap(recorder: Recorder) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(recorder: recorder))
                }
            }
    }

    private final class Recorder: Sendable {
        let requests = Mutex<[Request]>([])
        let responder: Mutex<Responder>

        init(responder: @escaping Responder) {
            self.responder = Mutex(responder)
        }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let recorder: Recorder
        private var head: HTTPRequestHead?
        private var body: [UInt8] = []

        init(recorder: Recorder) {
            self.recorder = recorder
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(let buffer):
                body += buffer.readableBytesView
            case .end:
                guard let head else { return }
                let request = Request(method: head.method, uri: head.uri, headers: head.headers, body: body)
                recorder.requests.withLock { $0.append(request) }
                let reply = recorder.responder.withLock { $0 }(request)
                if reply.delay > .zero {
                    let (seconds, attoseconds) = reply.delay.components
                    let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                    context.eventLoop.assumeIsolated().scheduleTask(in: delay) { self.respond(reply, context: context) }
                } else {
                    respond(reply, context: context)
                }
            }
        }

        private func respond(_ reply: Reply, context: ChannelHandlerContext) {
            // The client may have given up and closed the connection meanwhile.
            guard context.channel.isActive else { return }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: reply.contentType)
            headers.add(name: "Content-Length", value: String(reply.body.utf8.count + (reply.stallsBody ? 100 : 0)))
            for header in reply.headers { headers.add(name: header.name, value: header.value) }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: reply.status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: reply.body)))), promise: nil)
            if reply.stallsBody {
                context.flush()
            } else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}

extension LoopbackHTTPServer: CustomReflectable {
    /// Only the port: a failed expectation's description never walks into the server's event loop, which its thread changes meanwhile.
    public var customMirror: Mirror { Mirror(self, children: ["port": port]) }
}
