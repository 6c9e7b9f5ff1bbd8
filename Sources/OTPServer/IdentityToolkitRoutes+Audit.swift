internal import Foundation
internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    static let auditEvents = identityToolkit + "/projects/{project}/auditEvents"

    /// The audit log for administrators, OTPKit's extension of the admin API:
    /// - `GET /v1/projects/{project}/auditEvents`: a page of events, newest first, filtered by the
    ///   query (`userId`, `kind` (comma-separated), `actor`, `since`, `until` in Unix seconds),
    ///   `maxResults` (1 to 1000, 100 when absent) a page, `pageToken` the `nextPageToken` of the
    ///   page before;
    /// - `GET /v1/projects/{project}/auditEvents:export`: every matching event, oldest first, as
    ///   JSON lines (`application/x-ndjson`), streamed a thousand at a time (no paging parameters).
    func addAuditRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        router.get(RouterPath(Self.auditEvents)) { request, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdminRequest(request, context: context)
                let query = try Self.auditQuery(request.uri.queryParameters, paged: true)
                let events = try await routes.call { () async throws(AuthError) in try await routes.service.administration.auditEvents(query) }
                // A full page may have older events after it; the next page says.
                let next = events.count == query.limit ? events.last.map { String($0.sequence) } : nil
                return Wire.AuditEventPage(events: events.map(Wire.AuditEvent.init), nextPageToken: next)
            }
        }
        router.get(RouterPath(Self.auditEvents + ":export")) { request, context in
            do throws(IdentityToolkitError) {
                try routes.checkAdminRequest(request, context: context)
                var query = try Self.auditQuery(request.uri.queryParameters, paged: false)
                query.oldestFirst = true
                query.limit = AuditQuery.maximumLimit
                // The first page before the answer starts, so that a store that fails says so in
                // the answer's status rather than in a cut-off body.
                let first = try await routes.call { () async throws(AuthError) in try await routes.service.administration.auditEvents(query) }
                return routes.exportedAuditEvents(first, query: query)
            } catch {
                return error.response
            }
        }
    }

    /// `first` and every later event `query` matches, oldest first, one JSON object a line,
    /// written page by page as they are read, so an export of the whole retention holds one page
    /// in memory. A store that fails midway ends the body early (and is logged): the lines
    /// written are whole, and the last one's sequence number says where to go on from.
    func exportedAuditEvents(_ first: [OTPAuthentication.AuditEvent], query: AuditQuery) -> Response {
        let administration = service.administration
        let logger = self.logger
        let body = ResponseBody { writer in
            var query = query
            var page = first
            var written = 0
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            while !page.isEmpty {
                var lines = Data()
                for event in page {
                    lines.append(try encoder.encode(Wire.AuditEvent(event)))
                    lines.append(UInt8(ascii: "\n"))
                }
                try await writer.write(ByteBuffer(bytes: lines))
                written += page.count
                guard page.count == query.limit, let last = page.last else { break }
                query.afterSequence = last.sequence
                do {
                    page = try await administration.auditEvents(query)
                } catch {
                    logger.error("audit log export cut short", metadata: ["written": "\(written)", "error": "\(error)"])
                    break
                }
            }
            logger.info("audit log exported", metadata: ["events": "\(written)"])
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson; charset=UTF-8"], body: body)
    }

    /// The filters of an audit request's query, each refused with what it should be.
    static func auditQuery(_ parameters: Parameters, paged: Bool) throws(IdentityToolkitError) -> AuditQuery {
        var query = AuditQuery()
        if let userID = parameters["userId"], !userID.isEmpty { query.userID = String(userID) }
        if let kinds = parameters["kind"], !kinds.isEmpty {
            for name in kinds.split(separator: ",") {
                guard let kind = AuditEventKind(rawValue: String(name)) else {
                    let known = AuditEventKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw IdentityToolkitError("INVALID_ARGUMENT", "kind \(name.prefix(40)) is not an audit event kind: use one of \(known)")
                }
                query.kinds.insert(kind)
            }
        }
        if let actor = parameters["actor"], !actor.isEmpty {
            guard let parsed = AuditActor(description: String(actor)) else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "actor must be user:UID, admin:NAME, anonymous or system")
            }
            query.actor = parsed
        }
        query.since = try seconds(parameters["since"], name: "since")
        query.until = try seconds(parameters["until"], name: "until")
        guard paged else { return query }
        if let token = parameters["pageToken"], !token.isEmpty {
            guard let sequence = Int64(token), sequence > 0 else {
                throw IdentityToolkitError("INVALID_PAGE_SELECTION", "pageToken must be the nextPageToken of the page before")
            }
            query.beforeSequence = sequence
        }
        if let maximum = parameters["maxResults"], !maximum.isEmpty {
            guard let limit = Int(maximum), (1...AuditQuery.maximumLimit).contains(limit) else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "maxResults must be a whole number from 1 to \(AuditQuery.maximumLimit)")
            }
            query.limit = limit
        }
        return query
    }

    private static func seconds(_ text: Substring?, name: String) throws(IdentityToolkitError) -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let seconds = Int64(text) else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "\(name) must be a time in Unix seconds, such as 1767225600")
        }
        return seconds
    }
}
