import FuzzSupport
import Logging
import NIOCore
import NIOPosix
import OTPAuthentication
import OTPMail
import OTPSMS
import Synchronization

/// libFuzzer entry point: whatever an SMS or mail gateway answers, read by the sender that asked.
/// An input is one byte choosing the sender (`T` Twilio, `S` the SMS webhook, anything else the mail
/// webhook) and then the gateway's whole answer as raw bytes on the connection: status line,
/// headers and body, through libcurl's parser (OTPOutbound) into the sender's reading of it.
///
/// A send either succeeds or fails with the sender's error; the error never carries the message's
/// code, its link or Twilio's auth token.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGatewayAnswers(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    Gateway.shared.send(through: input[0], answering: Array(input.dropFirst()))
    return 0
}

/// A loopback server that answers every request with the current input, and one sender of each kind.
final class Gateway: Sendable {
    static let shared = Gateway()
    static let code = "734906"
    static let authToken = "auth-token-never-shown"
    static let answer = Mutex<[UInt8]>([])

    let twilio: TwilioSMSSender
    let smsWebhook: WebhookSMSSender
    let mailWebhook: WebhookEmailSender

    private init() {
        do {
            let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AnswerHandler()) }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
            let base = "http://127.0.0.1:\(channel.localAddress!.port!)"
            let quiet = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
            twilio = try TwilioSMSSender(
                credentials: .authToken(accountSID: "AC00000000000000000000000000000000", authToken: Self.authToken),
                origin: .phoneNumber("+15555550100"), baseURL: base, timeout: .seconds(5), logger: quiet)
            smsWebhook = try WebhookSMSSender(url: base + "/sms", timeout: .seconds(5), logger: quiet)
            mailWebhook = try WebhookEmailSender(url: base + "/mail", from: "fuzz@example.com", timeout: .seconds(5), logger: quiet)
        } catch {
            fatalError("the fuzz gateway could not start: \(error)")
        }
    }

    func send(through selector: UInt8, answering answer: [UInt8]) {
        Self.answer.withLock { $0 = answer }
        let (twilio, smsWebhook, mailWebhook) = (twilio, smsWebhook, mailWebhook)
        runBlocking {
            let failure: String?
            switch selector {
            case UInt8(ascii: "T"):
                do throws(SMSSendError) {
                    try await twilio.send("\(Self.code) is your code", to: "+15555554444")
                    failure = nil
                } catch { failure = "\(error)" }
            case UInt8(ascii: "S"):
                do throws(SMSSendError) {
                    try await smsWebhook.send("\(Self.code) is your code", to: "+15555554444")
                    failure = nil
                } catch { failure = "\(error)" }
            default:
                let message = EmailMessage(
                    to: "user@example.com", subject: "Sign in", body: "Open https://example.com/?oobCode=\(Self.code)",
                    link: "https://example.com/?oobCode=\(Self.code)", kind: .emailSignIn)
                do throws(EmailSendError) {
                    try await mailWebhook.send(message)
                    failure = nil
                } catch { failure = "\(error)" }
            }
            if let failure {
                check(!failure.isEmpty, "a failed send without a reason")
                check(!failure.contains(Self.code), "a sender's error repeats the message's code: \(failure)")
                check(!failure.contains(Self.authToken), "a sender's error repeats Twilio's auth token: \(failure)")
            }
        }
    }
}

/// Answers the first bytes of a request with the current input, then closes the connection.
final class AnswerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        answered = true
        let bytes = Gateway.answer.withLock { $0 }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }
}
