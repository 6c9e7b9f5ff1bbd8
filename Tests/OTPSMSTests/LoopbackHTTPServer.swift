import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1, started by a test: it records every request exactly as
/// it arrived and answers each with one configured reply, after an optional delay.
///
/// NIO rather than a Python server: it is already in the graph through async-http-client, starts
/// in-process in a millisecond on a port the kernel picks, and the test reads the recorded
/// requests directly instead of parsing a child's output.
final class LoopbackHTTPServer: Sendable {
    /// What the server answers.
    struct Reply: Sendable {
        var status: HTTPResponseStatus
        var body: String = ""
        var contentType = "application/json"
        /// How long the server waits before answering: past the sender's timeout, a slow gateway.
        var delay: Duration = .zero
        /// Announces more body than it sends and never ends the response: a gateway that stalls
        /// after its status line.
        var stallsBody = false
    }

    /// One request as received.
    struct Request: Sendable {
        let method: HTTPMethod
        let uri: String
        let headers: HTTPHeaders
        let body: [UInt8]

        var bodyText: String { String(decoding: body, as: UTF8.self) }

        /// The one value of `name`; nil when absent, a test failure waiting to happen when repeated.
        func header(_ name: String) -> String? {
            let values = headers[name]
            return values.count == 1 ? values[0] : nil
        }
    }

    let port: Int
    private let channel: any Channel
    private let recorder: Recorder

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var requests: [Request] { recorder.requests.withLock { $0 } }

    private init(channel: any Channel, recorder: Recorder) {
        self.channel = channel
        self.recorder = recorder
        self.port = channel.localAddress!.port!
    }

    static func start(replying reply: Reply) async throws -> LoopbackHTTPServer {
        let recorder = Recorder()
        let channel = try await bootstrap(reply: reply, recorder: recorder).bind(host: "127.0.0.1", port: 0).get()
        return LoopbackHTTPServer(channel: channel, recorder: recorder)
    }

    /// A loopback port that nothing listens on: bound by a server that is closed again at once,
    /// so connecting to it is refused.
    static func closedPort() async throws -> Int {
        let server = try await start(replying: Reply(status: .ok))
        try await server.stop()
        return server.port
    }

    func stop() async throws {
        try await channel.close()
    }

    private static func bootstrap(reply: Reply, recorder: Recorder) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(reply: reply, recorder: recorder))
                }
            }
    }

    private final class Recorder: Sendable {
        let requests = Mutex<[Request]>([])
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let reply: Reply
        private let recorder: Recorder
        private var head: HTTPRequestHead?
        private var body: [UInt8] = []

        init(reply: Reply, recorder: Recorder) {
            self.reply = reply
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
                if reply.delay > .zero {
                    let (seconds, attoseconds) = reply.delay.components
                    let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                    context.eventLoop.assumeIsolated().scheduleTask(in: delay) { self.respond(context: context) }
                } else {
                    respond(context: context)
                }
            }
        }

        private func respond(context: ChannelHandlerContext) {
            // The client may have given up and closed the connection meanwhile.
            guard context.channel.isActive else { return }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: reply.contentType)
            headers.add(name: "Content-Length", value: String(reply.body.utf8.count + (reply.stallsBody ? 100 : 0)))
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
