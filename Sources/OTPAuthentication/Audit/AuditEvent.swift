/// One security event in the audit log: what changed, whose, by whom, from where.
///
/// A store writes an event in the same transaction as the change it records (see
/// ``AuditStore``), so the log holds exactly the changes that happened. Events carry ids, kinds
/// and names, never a secret, a code, a password, a token or an email address.
public struct AuditEvent: Sendable, Hashable {
    /// The longest ``userAgent`` kept; a longer one is cut.
    public static let maximumUserAgentLength = 256
    /// The longest ``reason`` kept; a longer one is cut.
    public static let maximumReasonLength = 500

    /// The event's place in the log, given by the store when it writes the event (0 before):
    /// later events have greater numbers.
    public var sequence: Int64
    /// When it happened, in Unix seconds.
    public var time: Int64
    /// What happened.
    public var kind: AuditEventKind
    /// The account it happened to; `nil` for a sign-in refused before an account was known.
    public var userID: String?
    /// Who did it.
    public var actor: AuditActor
    /// The kind of second factor it concerns, if any.
    public var factorKind: FactorKind?
    /// The enrollment id of the second factor, or the id of the passkey (base64url), it concerns.
    public var factorID: String?
    /// The first-factor provider it concerns (``FirstFactorProvider/rawValue``, or an identity
    /// provider's id such as `google.com`).
    public var provider: String?
    /// The client's address, as the server saw it.
    public var clientAddress: String?
    /// The client's `User-Agent`, cut to ``maximumUserAgentLength`` characters.
    public var userAgent: String?
    /// Why: an administrator's stated reason, or why a sign-in was refused. Cut to
    /// ``maximumReasonLength`` characters.
    public var reason: String?

    /// Creates an event; `userAgent` and `reason` are cut to their limits.
    public init(
        sequence: Int64 = 0, time: Int64, kind: AuditEventKind, userID: String?, actor: AuditActor, factorKind: FactorKind? = nil,
        factorID: String? = nil, provider: String? = nil, clientAddress: String? = nil, userAgent: String? = nil, reason: String? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.userID = userID
        self.actor = actor
        self.factorKind = factorKind
        self.factorID = factorID
        self.provider = provider
        self.clientAddress = clientAddress
        self.userAgent = userAgent.map { String($0.prefix(Self.maximumUserAgentLength)) }
        self.reason = reason.map { String($0.prefix(Self.maximumReasonLength)) }
    }
}
