import Logging
import OTPAuthentication
import OTPLoopbackHTTP
import OTPMail
import OTPSMS
import OTPTestUtilities
import Testing

/// Every input FuzzGatewayAnswers ever failed on, replayed through the sender it chose: the
/// answer is read without a crash, and a failure never repeats the message's code or Twilio's auth
/// token. What each one found is in Tests/Fuzz/Known/README.md and the senders' own tests.
@Suite("The gateway answers the fuzzer found")
struct GatewayAnswerRegressionTests {
    static let directory = "Tests/Fuzz/Regressions/FuzzGatewayAnswers"
    static let code = "734906"
    static let authToken = "auth-token-never-shown"

    @Test("each is read without a crash or a secret in the failure", arguments: try Fixture.fileNames(in: directory))
    func replay(_ name: String) async throws {
        let input = Array(try Fixture.data("\(Self.directory)/\(name)"))
        let selector = try #require(input.first)
        let server = try await RawAnswerServer.start(answering: Array(input.dropFirst()))
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        var failure: String?
        switch selector {
        case UInt8(ascii: "T"):
            let sender = try TwilioSMSSender(
                credentials: .authToken(accountSID: "AC00000000000000000000000000000000", authToken: Self.authToken),
                origin: .phoneNumber("+15555550100"), baseURL: server.baseURL, timeout: .seconds(10), logger: quiet)
            do throws(SMSSendError) { try await sender.send("\(Self.code) is your code", to: "+15555554444") } catch { failure = "\(error)" }
        case UInt8(ascii: "S"):
            let sender = try WebhookSMSSender(url: server.baseURL + "/sms", timeout: .seconds(10), logger: quiet)
            do throws(SMSSendError) { try await sender.send("\(Self.code) is your code", to: "+15555554444") } catch { failure = "\(error)" }
        default:
            let sender = try WebhookEmailSender(url: server.baseURL + "/mail", from: "fuzz@example.com", timeout: .seconds(10), logger: quiet)
            let link = "https://example.com/?oobCode=\(Self.code)"
            let message = EmailMessage(to: "user@example.com", subject: "Sign in", body: "Open \(link)", link: link, kind: .emailSignIn)
            do throws(EmailSendError) { try await sender.send(message) } catch { failure = "\(error)" }
        }
        try await server.stop()
        // Every one of them is an answer no gateway accepting a message sends.
        let shown = try #require(failure, "\(name) was taken for an accepted message")
        #expect(!shown.contains(Self.code) && !shown.contains("7349") && !shown.contains(Self.authToken), "\(name): \(shown)")
    }
}
