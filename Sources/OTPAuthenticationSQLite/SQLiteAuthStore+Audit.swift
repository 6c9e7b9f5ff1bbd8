public import OTPAuthentication
internal import OTPDurableStore
internal import SQLiteNIO

extension SQLiteAuthStore {
    /// Writes the pending events of the operation running now (`AuditTrail`) in the caller's
    /// transaction: called where an operation has made its change.
    func recordAudit() async throws(SQLiteAuthStoreError) {
        for event in AuditTrail.pending { try await insertAuditEvent(event) }
    }

    /// The columns a sign-in batch's row carries its audit event in (``auditBinds(_:)``), in
    /// the order of ``StoredColumns/auditEventInsert``.
    static let auditColumns =
        "audit_time, audit_kind, audit_user_id, audit_actor, audit_factor_kind, audit_factor_id, audit_provider, audit_client_address, audit_user_agent, audit_reason"

    /// The values of `event` in the order of ``StoredColumns/auditEventInsert``; all null for none.
    static func auditBinds(_ event: AuditEvent?) -> [SQLiteData] {
        guard let event else { return Array(repeating: .null, count: 10) }
        return [
            .integer(Int(event.time)), .text(event.kind.rawValue), optional(event.userID), .text(event.actor.description),
            optional(event.factorKind?.rawValue), optional(event.factorID), optional(event.provider), optional(event.clientAddress),
            optional(event.userAgent), optional(event.reason),
        ]
    }

    /// Inserts `event` in the caller's transaction and returns it with its sequence number.
    @discardableResult
    func insertAuditEvent(_ event: AuditEvent) async throws(SQLiteAuthStoreError) -> AuditEvent {
        let rows = try await execute(
            "INSERT INTO audit_events (\(StoredColumns.auditEventInsert)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING sequence",
            Self.auditBinds(event))
        var recorded = event
        recorded.sequence = Int64(rows.first?.column("sequence")?.integer ?? 0)
        return recorded
    }

    @discardableResult
    public func recordAuditEvent(_ event: AuditEvent) async throws(SQLiteAuthStoreError) -> AuditEvent {
        try await transaction { () throws(SQLiteAuthStoreError) -> AuditEvent in try await self.insertAuditEvent(event) }
    }

    /// One statement on the reader, walking the sequence (through the user's index when the query
    /// names a user), so a page costs its own rows and not the log's length.
    public func auditEvents(_ query: AuditQuery) async throws(SQLiteAuthStoreError) -> [AuditEvent] {
        var conditions: [String] = []
        var binds: [SQLiteData] = []
        if let userID = query.userID {
            conditions.append("user_id = ?")
            binds.append(.text(userID))
        }
        if !query.kinds.isEmpty {
            let kinds = query.kinds.map(\.rawValue).sorted()
            conditions.append("kind IN (\(Array(repeating: "?", count: kinds.count).joined(separator: ", ")))")
            binds += kinds.map { .text($0) }
        }
        if let actor = query.actor {
            conditions.append("actor = ?")
            binds.append(.text(actor.description))
        }
        if let since = query.since {
            conditions.append("time >= ?")
            binds.append(.integer(Int(since)))
        }
        if let until = query.until {
            conditions.append("time < ?")
            binds.append(.integer(Int(until)))
        }
        if let before = query.beforeSequence {
            conditions.append("sequence < ?")
            binds.append(.integer(Int(before)))
        }
        if let after = query.afterSequence {
            conditions.append("sequence > ?")
            binds.append(.integer(Int(after)))
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        binds.append(.integer(query.limit))
        let rows = try await execute(
            "SELECT \(StoredColumns.auditEvent) FROM audit_events \(filter) ORDER BY sequence \(query.oldestFirst ? "ASC" : "DESC") LIMIT ?",
            binds, on: .reader)
        return try rows.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).auditEvent() }
    }

    /// The events before the first one at or after `?1`: found walking the sequence from the
    /// oldest, which stops at the first event kept, since events are written in time order.
    static let purgeAuditEventsStatement = """
        DELETE FROM audit_events
        WHERE sequence < coalesce((SELECT sequence FROM audit_events WHERE time >= ?1 ORDER BY sequence LIMIT 1), 9223372036854775807)
        RETURNING sequence
        """

    @discardableResult
    public func purgeAuditEvents(before time: Int64) async throws(SQLiteAuthStoreError) -> Int {
        try await transaction { () throws(SQLiteAuthStoreError) -> Int in
            try await self.execute(Self.purgeAuditEventsStatement, [.integer(Int(time))]).count
        }
    }
}
