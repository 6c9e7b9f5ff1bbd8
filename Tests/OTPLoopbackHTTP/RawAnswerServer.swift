import NIOCore
import NIOPosix
import Synchronization

/// A server on 127.0.0.1 that answers the first bytes of each connection with fixed raw bytes and
/// closes it: answers no well-behaved HTTP server would send (a status below 100, a malformed head),
/// as the gateway fuzz target sends them.
public final class RawAnswerServer: Sendable {
    public let port: Int
    private let channel: any Channel

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress!.port!
    }

    /// A server answering every connection with `answer`.
    public static func start(answering answer: [UInt8]) async throws -> RawAnswerServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Handler(answer: answer)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return RawAnswerServer(channel: channel)
    }

    public func stop() async throws {
        try await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let answer: [UInt8]
        private var answered = false

        init(answer: [UInt8]) {
            self.answer = answer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            answered = true
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: answer))).whenComplete { _ in
                bound.value.close(promise: nil)
            }
        }
    }
}

extension RawAnswerServer: CustomReflectable {
    /// Only the port, as for ``LoopbackHTTPServer``.
    public var customMirror: Mirror { Mirror(self, children: ["port": port]) }
}
