internal import Foundation
internal import Hummingbird
internal import NIOCore
internal import OTPAuthentication

/// An error answer as Identity Toolkit gives it:
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{"message":…,"reason":"invalid","domain":"global"}]}}`,
/// with `"status"` for classes other than 400. Clients split the message at the first `:` (iOS,
/// Python) or at `" : "` (JS), so it is always `CODE : detail`.
struct IdentityToolkitError: Error {
    var status: HTTPResponse.Status
    var code: String
    var detail: String
    var reason = "invalid"

    init(status: HTTPResponse.Status = .badRequest, _ code: String, _ detail: String, reason: String = "invalid") {
        self.status = status
        self.code = code
        self.detail = detail
        self.reason = reason
    }

    /// The service's refusal under its Firebase code; a store failure as `INTERNAL_ERROR` without
    /// its cause, which names files and servers clients must not see.
    init(_ error: AuthError) {
        switch error.code {
        case .internalError where error.underlyingError is EmailSendError:
            // The mail server, not this one, failed: say so, without what it said (a message may
            // name hosts and accounts a client must not see).
            self.init(status: .serviceUnavailable, error.code.serverCode, "the email could not be sent: try again later")
        case .internalError:
            self.init(status: .internalServerError, error.code.serverCode, "the server failed: try again later")
        case .secondFactorRequired:
            // Only a first factor this server does not yet answer with a pending credential.
            self = .notServed("this account has second factors, and this sign-in method does not offer multi-factor sign-in yet")
        default:
            self.init(error.code.serverCode, error.message)
        }
    }

    /// A request this server understands and leaves out (an option, a flow of Firebase's): 400
    /// `OPERATION_NOT_ALLOWED` with what to do instead. Never a 5xx, which clients retry and
    /// monitors page on, for an answer that will not change.
    static func notServed(_ detail: String) -> IdentityToolkitError {
        IdentityToolkitError("OPERATION_NOT_ALLOWED", detail)
    }

    /// An administrator's input refused under Firebase's code, as the service names it.
    init(_ error: AdminRequestError) {
        self.init(error.code, error.message)
    }

    static func invalidJSON(_ detail: String) -> IdentityToolkitError {
        IdentityToolkitError("INVALID_ARGUMENT", "Invalid JSON payload received. " + detail)
    }

    var message: String { code + " : " + detail }

    /// The name Google's APIs give the status class, sent for every class but 400.
    var statusName: String? {
        switch status.code {
        case 400: nil
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 501: "NOT_IMPLEMENTED"
        default: "INTERNAL"
        }
    }

    struct Body: Encodable {
        struct Detail: Encodable {
            var message: String
            var reason: String
            var domain = "global"
        }
        struct Content: Encodable {
            var code: Int
            var message: String
            var errors: [Detail]
            var status: String?
        }
        var error: Content
    }

    var body: Body {
        Body(error: .init(code: status.code, message: message, errors: [.init(message: message, reason: reason)], status: statusName))
    }

    /// The answer that carries this error: its status and ``body`` as JSON.
    var response: Response {
        // The body is strings and numbers, which JSONEncoder always encodes.
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
