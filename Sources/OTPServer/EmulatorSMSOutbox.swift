public import OTPAuthentication
internal import Synchronization

/// The SMS sender of `otpkit-server --emulator`: sends nothing, and keeps each code with its number
/// and session info for `GET /emulator/v1/projects/{project}/verificationCodes`, as Firebase's Auth
/// emulator lists them.
///
/// Give the same instance to the `MultiFactorService` (as its sender, with a message template of
/// `{code}` alone, so the text is the code) and to ``IdentityToolkitRoutes``. The routes run each
/// send inside a capture of their own task, which pairs the code with the session info the service
/// returns; concurrent sends never mix. A code leaves the list when its finalize succeeds; at most
/// ``capacity`` are kept, oldest dropped first.
public final class EmulatorSMSOutbox: SMSSender {
    struct Message: Sendable {
        var code: String
        var phoneNumber: String
        var sessionInfo: String
    }

    /// What one send captured, within the task of one request.
    final class Capture: Sendable {
        let sent = Mutex<(text: String, phoneNumber: String)?>(nil)
    }

    @TaskLocal static var capture: Capture?

    /// The most codes kept.
    public let capacity: Int
    private let messages = Mutex<[Message]>([])

    /// An empty outbox keeping up to `capacity` codes.
    public init(capacity: Int = 1000) {
        self.capacity = capacity
    }

    /// Records the message in the capture of the request sending it; outside one (a sender shared
    /// with another caller) it refuses, so nothing is silently lost.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        guard let capture = Self.capture else {
            throw SMSSendError(.misconfigured("the emulator's outbox only takes codes sent through the server's routes"), sender: "emulator")
        }
        capture.sent.withLock { $0 = (text, phoneNumber) }
    }

    /// Runs `send`, a service call that may send a code and returns its session info, and files
    /// the code it sent under that session info.
    func recording(_ send: () async throws(IdentityToolkitError) -> String) async throws(IdentityToolkitError) -> String {
        let capture = Capture()
        let sessionInfo: String
        do {
            sessionInfo = try await Self.$capture.withValue(capture) { try await send() }
        } catch let error as IdentityToolkitError {
            throw error
        } catch {
            throw IdentityToolkitError(status: .internalServerError, "INTERNAL_ERROR", "the server failed: try again later")
        }
        if let sent = capture.sent.withLock({ $0 }) {
            messages.withLock { list in
                if list.count >= capacity { list.removeFirst(list.count - capacity + 1) }
                list.append(Message(code: sent.text, phoneNumber: sent.phoneNumber, sessionInfo: sessionInfo))
            }
        }
        return sessionInfo
    }

    /// Forgets the code of `sessionInfo`, once it was used.
    func remove(sessionInfo: String) {
        messages.withLock { $0.removeAll { $0.sessionInfo == sessionInfo } }
    }

    /// The codes not used yet, oldest first.
    var pending: [Message] { messages.withLock { $0 } }
}

extension EmulatorSMSOutbox: CustomReflectable {
    /// Never the codes.
    public var customMirror: Mirror { Mirror(self, children: ["capacity": capacity]) }
}
