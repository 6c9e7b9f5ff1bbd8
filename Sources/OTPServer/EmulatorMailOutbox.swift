public import OTPAuthentication
internal import Synchronization

/// The mail sender of `otpkit-server --emulator`: sends nothing, and keeps each message's link for
/// `GET /emulator/v1/projects/{project}/oobCodes`, as Firebase's Auth emulator lists them. Give the
/// same instance to the `MultiFactorService` (as its email sender) and to
/// ``IdentityToolkitRoutes``. At most ``capacity`` are kept, oldest dropped first.
public final class EmulatorMailOutbox: EmailSender {
    struct Entry: Sendable {
        var email: String
        var code: String
        var link: String
        var kind: EmailActionKind
    }

    /// The most links kept.
    public let capacity: Int
    private let entries = Mutex<[Entry]>([])

    /// An empty outbox keeping up to `capacity` links.
    public init(capacity: Int = 1000) {
        self.capacity = capacity
    }

    public func send(_ message: EmailMessage) async throws(EmailSendError) {
        let code = MultiFactorService.actionCode(inLink: message.link)
        guard code != message.link else {
            throw EmailSendError(.misconfigured("the message's link has no oobCode"), sender: "emulator")
        }
        let entry = Entry(email: message.to, code: code, link: message.link, kind: message.kind)
        entries.withLock { list in
            if list.count >= capacity { list.removeFirst(list.count - capacity + 1) }
            list.append(entry)
        }
    }

    /// Every link kept, oldest first.
    var sent: [Entry] { entries.withLock { $0 } }
}
