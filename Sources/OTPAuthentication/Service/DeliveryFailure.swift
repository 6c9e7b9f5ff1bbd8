/// Why a message (a text message, an email) was not accepted for delivery: the reason of
/// ``SMSSendError`` and of ``EmailSendError``, which say it the same way.
public enum DeliveryFailure: Sendable, Hashable {
    /// The gateway, server or program answered that it refused the message (an HTTP status, an
    /// SMTP reply, an exit status), with what it said.
    case rejected(String)
    /// No answer within the time allowed, in seconds.
    case timedOut(seconds: Double)
    /// The gateway or server could not be reached, or the program could not be started.
    case unreachable(String)
    /// The sender's own settings cannot work (a malformed URL, an empty program path, …).
    case misconfigured(String)

    /// The sentence for a failure of the sender `sender` of `medium` (`SMS`, `mail`).
    func description(sender: String, medium: String) -> String {
        switch self {
        case .rejected(let detail): "the \(sender) \(medium) sender refused the message: \(detail)"
        case .timedOut(let seconds): "the \(sender) \(medium) sender did not answer within \(seconds) seconds"
        case .unreachable(let detail): "the \(sender) \(medium) sender could not be reached: \(detail)"
        case .misconfigured(let detail): "the \(sender) \(medium) sender is misconfigured: \(detail)"
        }
    }
}

/// The errors senders throw, ``SMSSendError`` and ``EmailSendError``: what lets the machinery both
/// kinds of sender share (running a program, posting to a webhook) throw either.
package protocol DeliveryError: Error {
    /// The error of the sender `sender` failing for `reason`.
    init(_ reason: DeliveryFailure, sender: String)
}

extension SMSSendError: DeliveryError {}
extension EmailSendError: DeliveryError {}
