internal import NIOCore
internal import NIOHTTPTypes

/// Closes a connection whose request has not arrived whole, from its head to its end, within
/// `timeout`: the idle timeout alone lets a client that sends a byte now and then hold a
/// connection for as long as it likes.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestDeadlineHandler: Sendable {}
