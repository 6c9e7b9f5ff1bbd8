package import OTPAuthentication

extension StoredColumns {
    /// The columns an audit event is written to (its sequence number is the store's to give).
    package static let auditEventInsert = "time, kind, user_id, actor, factor_kind, factor_id, provider, client_address, user_agent, reason"
    package static let auditEvent = "sequence, " + auditEventInsert
}

extension StoredRow {
    /// A row of ``StoredColumns/auditEvent``.
    package func auditEvent() throws(Failure) -> AuditEvent {
        let sequence = try integer("sequence", of: "an audit event")
        let id = "audit event \(sequence)"
        let kindName = try text("kind", of: id)
        guard let kind = AuditEventKind(rawValue: kindName) else { throw invalidRecord(recordID: id, detail: "unknown kind \(kindName)") }
        let actorName = try text("actor", of: id)
        guard let actor = AuditActor(description: actorName) else { throw invalidRecord(recordID: id, detail: "unknown actor form") }
        var factorKind: FactorKind?
        if let name = try optionalText("factor_kind", of: id) {
            guard let known = FactorKind(rawValue: name) else { throw invalidRecord(recordID: id, detail: "unknown factor kind \(name)") }
            factorKind = known
        }
        return AuditEvent(
            sequence: sequence, time: try integer("time", of: id), kind: kind, userID: try optionalText("user_id", of: id), actor: actor,
            factorKind: factorKind, factorID: try optionalText("factor_id", of: id), provider: try optionalText("provider", of: id),
            clientAddress: try optionalText("client_address", of: id), userAgent: try optionalText("user_agent", of: id),
            reason: try optionalText("reason", of: id))
    }
}
