public import OTPAuthentication
internal import OTPDurableStore
internal import PostgresNIO

extension PostgresAuthStore.Connection {
    /// Writes the operation's pending audit events (``audit``) in this transaction: called where
    /// the operation has made its change.
    func recordAudit() async throws {
        guard !audit.isEmpty else { return }
        try await execute("SELECT true\(alsoRecording: audit)")
    }
}

extension PostgresQuery.StringInterpolation {
    /// `, otpkit_record_audit_events(…)` (migration 13) writing `events`, or nothing when there
    /// are none: one more column of a `SELECT`, so that a sign-in set's events go in the statement
    /// of its own function and cost it no round trip. postgres-nio binds no array of optionals:
    /// an empty string stands for none, which no event's optional field holds.
    mutating func appendInterpolation(alsoRecording events: [AuditEvent]) {
        guard !events.isEmpty else { return }
        appendLiteral(", otpkit_record_audit_events(")
        appendInterpolation(events.map(\.time))
        for column in [
            events.map(\.kind.rawValue), events.map { $0.userID ?? "" }, events.map(\.actor.description),
            events.map { $0.factorKind?.rawValue ?? "" }, events.map { $0.factorID ?? "" }, events.map { $0.provider ?? "" },
            events.map { $0.clientAddress ?? "" }, events.map { $0.userAgent ?? "" }, events.map { $0.reason ?? "" },
        ] {
            appendLiteral(", ")
            appendInterpolation(column)
        }
        appendLiteral(")")
    }
}

extension PostgresAuthStore {
    @discardableResult
    public func recordAuditEvent(_ event: AuditEvent) async throws(PostgresAuthStoreError) -> AuditEvent {
        let rows = try await transaction("recording an audit event") { connection in
            try await connection.query(
                """
                INSERT INTO audit_events (\(unescaped: StoredColumns.auditEventInsert))
                VALUES (\(event.time), \(event.kind.rawValue), \(event.userID), \(event.actor.description), \(event.factorKind?.rawValue),
                        \(event.factorID), \(event.provider), \(event.clientAddress), \(event.userAgent), \(event.reason))
                RETURNING sequence
                """)
        }
        var recorded = event
        recorded.sequence = try rows.records { row throws(PostgresAuthStoreError) in try row.integer("sequence", of: "an audit event") }.first ?? 0
        return recorded
    }

    /// One statement, walking the sequence (through the user's index when the query names a
    /// user), so a page costs its own rows and not the log's length. Absent filters are
    /// nulls the conditions let through.
    public func auditEvents(_ query: AuditQuery) async throws(PostgresAuthStoreError) -> [AuditEvent] {
        let kinds = query.kinds.map(\.rawValue).sorted()
        let rows = try await reading("reading the audit log") { connection in
            try await connection.query(
                """
                SELECT \(unescaped: StoredColumns.auditEvent) FROM audit_events
                WHERE (\(query.userID)::text IS NULL OR user_id = \(query.userID))
                    AND (\(kinds.isEmpty) OR kind = ANY(\(kinds)))
                    AND (\(query.actor?.description)::text IS NULL OR actor = \(query.actor?.description))
                    AND (\(query.since)::bigint IS NULL OR time >= \(query.since))
                    AND (\(query.until)::bigint IS NULL OR time < \(query.until))
                    AND (\(query.beforeSequence)::bigint IS NULL OR sequence < \(query.beforeSequence))
                    AND (\(query.afterSequence)::bigint IS NULL OR sequence > \(query.afterSequence))
                ORDER BY sequence \(unescaped: query.oldestFirst ? "ASC" : "DESC") LIMIT \(Int64(query.limit))
                """)
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.auditEvent() }
    }

    @discardableResult
    public func purgeAuditEvents(before time: Int64) async throws(PostgresAuthStoreError) -> Int {
        let rows = try await transaction("purging old audit events", retry: .always) { connection in
            // The events before the first one at or after the time, found walking the sequence from
            // the oldest (events are written in time order, and have no index by time).
            try await connection.query(
                """
                WITH purged AS (
                    DELETE FROM audit_events
                    WHERE sequence < coalesce(
                        (SELECT sequence FROM audit_events WHERE time >= \(time) ORDER BY sequence LIMIT 1), 9223372036854775807)
                    RETURNING 1)
                SELECT count(*) FROM purged
                """)
        }
        return Int(try rows.records { row throws(PostgresAuthStoreError) in try row.integer("count", of: "purged audit events") }.first ?? 0)
    }
}
