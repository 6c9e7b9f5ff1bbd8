/// Which audit events to read (``AuditStore/auditEvents(_:)``): filters that all hold, newest
/// first, one page at a time.
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
    /// Only events older than this sequence number: the ``AuditPage/nextPageToken`` of the page
    /// before.
    public var beforeSequence: Int64?
    /// How many events a page holds at most, from 1 to ``maximumLimit``.
    public var limit: Int

    /// Creates a query; `limit` is held between 1 and ``maximumLimit``.
    public init(
        userID: String? = nil, kinds: Set<AuditEventKind> = [], actor: AuditActor? = nil, since: Int64? = nil, until: Int64? = nil,
        beforeSequence: Int64? = nil, limit: Int = 100
    ) {
        self.userID = userID
        self.kinds = kinds
        self.actor = actor
        self.since = since
        self.until = until
        self.beforeSequence = beforeSequence
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
        return true
    }
}
