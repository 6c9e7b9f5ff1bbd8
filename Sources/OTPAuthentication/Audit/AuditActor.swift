/// Who made a change an ``AuditEvent`` records.
public enum AuditActor: Sendable, Hashable {
    /// The user `id`, signed in (or signing in) as themselves.
    case user(String)
    /// The administrator named `name`: the operator's credential (`otpkit-server`'s admin
    /// token is `"admin"`), or the account that signed in to the admin console.
    case administrator(String)
    /// Someone not signed in: a sign-up, a sign-in attempt, a link from an email.
    case anonymous
    /// The service itself, or an operator at the command line.
    case system

    /// The stored form: `user:ID`, `admin:NAME`, `anonymous` or `system`.
    public var description: String {
        switch self {
        case .user(let id): "user:\(id)"
        case .administrator(let name): "admin:\(name)"
        case .anonymous: "anonymous"
        case .system: "system"
        }
    }

    /// The actor of a stored form; `nil` when `description` is none of them.
    public init?(description: String) {
        if description == "anonymous" {
            self = .anonymous
        } else if description == "system" {
            self = .system
        } else if description.hasPrefix("user:") {
            self = .user(String(description.dropFirst(5)))
        } else if description.hasPrefix("admin:") {
            self = .administrator(String(description.dropFirst(6)))
        } else {
            return nil
        }
    }
}

extension AuditActor: CustomStringConvertible {}
