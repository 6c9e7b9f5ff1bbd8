import CCurl
import OTPCore
import Glibc

/// One outbound HTTP request and its answer, through libcurl: what OTPKit's senders post to their
/// gateways (Twilio, the SMS and mail webhooks) and how it fetches a provider's key set.
///
/// libcurl rather than async-http-client, whose state machine traps on an answer with a status
/// below 100 (`HTTP/1.1 021`): any gateway or key server could end the process that way. libcurl
/// refuses such an answer as an error, and its timeout bounds the whole exchange, body included.
/// Each exchange runs on ``OutboundThreads``, since libcurl's easy interface blocks its thread.
package struct HTTPExchange: Sendable {
    package enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    package var method: Method
    /// An `http` or `https` URL; libcurl refuses every other scheme.
    package var url: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The whole exchange: connection, request, the answer's head and body.
    package var timeout: Duration
    /// How much of the answer's body is kept; a byte more ends the exchange
    /// (``HTTPAnswer/Ending/overLimit``).
    package var bodyLimit: Int

    package init(
        _ method: Method, _ url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [], timeout: Duration,
        bodyLimit: Int
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.bodyLimit = bodyLimit
    }

    /// Makes the exchange. The answer is returned once its head arrived, even when its body was
    /// then cut short (its ``HTTPAnswer/ending`` says how); before that, the failure.
    ///
    /// Cancelling the task ends the exchange within libcurl's next progress check (at most a
    /// second) as ``HTTPExchangeFailure/cancelled``.
    package func perform() async -> Result<HTTPAnswer, HTTPExchangeFailure> {
        let flag = CancellationFlag()
        let exchange = self
        return await withTaskCancellationHandler {
            do {
                return try await OutboundThreads.pool.runIfActive { exchange.performBlocking(cancelled: flag) }
            } catch {
                return .failure(.cancelled)
            }
        } onCancel: {
            flag.set()
        }
    }

    private func performBlocking(cancelled flag: CancellationFlag) -> Result<HTTPAnswer, HTTPExchangeFailure> {
        // libcurl takes `Name:` for "remove this header" and sends `Name;` as an empty one.
        let lines = headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        var result = otpkit_http_result()
        defer { otpkit_http_result_free(&result) }
        let milliseconds = Int(timeout.milliseconds)
        withCStrings(lines) { headerPointers in
            self.body.withUnsafeBufferPointer { content in
                method.rawValue.withCString { method in
                    url.withCString { url in
                        var request = otpkit_http_request(
                            method: method, url: url, headers: headerPointers.baseAddress, header_count: headerPointers.count,
                            body: content.baseAddress, body_length: content.count, timeout_milliseconds: milliseconds, body_limit: bodyLimit,
                            cancelled: UnsafePointer(flag.pointer))
                        otpkit_http_exchange(&request, &result)
                    }
                }
            }
        }
        // `Connection refused (errno 111)` rather than libcurl's sentence around it, whose
        // milliseconds change from run to run.
        let detail =
            result.os_errno != 0
            ? "\(String(cString: strerror(Int32(result.os_errno)))) (errno \(result.os_errno))"
            : withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let failure = result.curl_code == 0 ? nil : HTTPExchangeFailure(curlCode: result.curl_code, detail: detail)
        guard result.status >= 200 else { return .failure(failure ?? .brokenOff("the answer had no status")) }
        let head = result.head.map { Array(UnsafeBufferPointer(start: $0, count: result.head_length)) } ?? []
        let body = result.body.map { Array(UnsafeBufferPointer(start: $0, count: result.body_length)) } ?? []
        let ending: HTTPAnswer.Ending =
            if result.body_over_limit != 0 { .overLimit } else if let failure { .brokenOff(failure) } else { .complete }
        return .success(HTTPAnswer(status: Int(result.status), head: head, body: body, ending: ending))
    }
}

/// A flag libcurl's progress callback reads on the exchange's thread while the task's
/// cancellation handler sets it on another. An `int` the C side reads and writes atomically,
/// because libcurl's callback can only be handed a C pointer, not a Swift `Atomic`.
private final class CancellationFlag: Sendable {
    nonisolated(unsafe) let pointer: UnsafeMutablePointer<Int32>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }

    deinit { pointer.deallocate() }

    func set() { otpkit_http_cancel(pointer) }
}

/// Calls `body` with the C strings of `strings`, valid for the call only.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer(body)
}
