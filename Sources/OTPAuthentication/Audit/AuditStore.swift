/// The audit log: security events, each written by the store operation that makes the change
/// it records, in that operation's transaction (`AuditTrail`), and read by administrators.
///
/// A requirement of ``AuthStore``. Events outlive the accounts they name (deleting an account
/// keeps its events) until ``purgeAuditEvents(before:)`` drops them by age.
public protocol AuditStore: Sendable {
    /// Writes `event`, in a transaction of its own: for events that record no change of the
    /// store (a refused sign-in that counted nothing). Returns it with its sequence number.
    @discardableResult
    func recordAuditEvent(_ event: AuditEvent) async throws -> AuditEvent

    /// The events that match `query`, newest (greatest sequence number) first, or oldest first
    /// when ``AuditQuery/oldestFirst``, at most ``AuditQuery/limit``.
    func auditEvents(_ query: AuditQuery) async throws -> [AuditEvent]

    /// Deletes the events written before the first one that happened at or after `time`; how
    /// many. Events are written in time order, so these are the ones before `time` (an event a
    /// server with a clock behind the others wrote may stay until the next purge).
    @discardableResult
    func purgeAuditEvents(before time: Int64) async throws -> Int
}
