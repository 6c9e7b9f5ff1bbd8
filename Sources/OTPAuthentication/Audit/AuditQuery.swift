/// Which audit events to read (``AuditStore/auditEvents(_:)``): filters that all hold, newest
/// first (or oldest first, for an export), one page at a time.
public struct AuditQuery: Sendable, Hashable {
    /// The most events one page may hold.
    public static let maximumLimit = 1000

    /// Only events of this account.
    public var userID: String?
    /// Only events of these kinds; empty for every kind.
    public var kinds: Set<AuditEventKind>
    /// Only events by this actor.
    public var actor: AuditActor?
    /// Only events at or after this Unix second.
    public var since: Int64?
    /// Only events before this Unix second.
    public var until: Int64?
    /// Only events older than this sequence number: the last of the page before, newest first.
    public var beforeSequence: Int64?
    /// Only events newer than this sequence number: the last of the page before, oldest first.
    public var afterSequence: Int64?
    /// Whether the oldest events come first (an export) rather than the newest.
    public var oldestFirst: Bool
    /// How many events a page holds at most, from 1 to ``maximumLimit``.
    public var limit: Int

    /// Creates a query; `limit` is held between 1 and ``maximumLimit``.
    public init(
        userID: String? = nil, kinds: Set<AuditEventKind> = [], actor: AuditActor? = nil, since: Int64? = nil, until: Int64? = nil,
        beforeSequence: Int64? = nil, afterSequence: Int64? = nil, oldestFirst: Bool = false, limit: Int = 100
    ) {
        self.userID = userID
        self.kinds = kinds
        self.actor = actor
        self.since = since
        self.until = until
        self.beforeSequence = beforeSequence
        self.afterSequence = afterSequence
        self.oldestFirst = oldestFirst
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }

    /// Whether `event` passes the filters (not the paging).
    public func matches(_ event: AuditEvent) -> Bool {
        if let userID, event.userID != userID { return false }
        if !kinds.isEmpty, !kinds.contains(event.kind) { return false }
        if let actor, event.actor != actor { return false }
        if let since, event.time < since { return false }
        if let until, event.time >= until { return false }
        if let beforeSequence, event.sequence >= beforeSequence { return false }
        if let afterSequence, event.sequence <= afterSequence { return false }
        return true
    }
}
