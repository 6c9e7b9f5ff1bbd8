internal import OTPAuthentication

extension Wire {
    /// One audit event as the audit endpoints write it, in a page and as a line of the export:
    /// numbers as JSON numbers (Unix seconds for the time), absent fields left out.
    struct AuditEvent: Encodable {
        var sequence: Int64
        var time: Int64
        var kind: String
        var userId: String?
        var actor: String
        var factorKind: String?
        var factorId: String?
        var provider: String?
        var clientAddress: String?
        var userAgent: String?
        var reason: String?

        init(_ event: OTPAuthentication.AuditEvent) {
            sequence = event.sequence
            time = event.time
            kind = event.kind.rawValue
            userId = event.userID
            actor = event.actor.description
            factorKind = event.factorKind?.rawValue
            factorId = event.factorID
            provider = event.provider
            clientAddress = event.clientAddress
            userAgent = event.userAgent
            reason = event.reason
        }
    }

    /// `GET …/auditEvents`: one page, newest first; `nextPageToken` when older events follow.
    struct AuditEventPage: Encodable {
        var events: [AuditEvent]
        var nextPageToken: String?
    }
}
