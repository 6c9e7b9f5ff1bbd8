internal import OTPCore

/// The events the store operation running now records, in its own transaction, when it makes
/// its change: how an ``AuditEvent`` is written atomically with what it records.
///
/// The service sets it around one store call (``MultiFactorService/recording(_:_:)``); a store
/// reads it once when the operation starts, in the caller's task (before any batching hands the
/// work to another task), and writes it only when the operation changed what it exists to change
/// (a factor removed, a session stored, a failure counted), as each requirement of the store
/// protocols says. An operation called without one records nothing. A task-local rather than a
/// parameter of each of the store's fifty operations: the event is the caller's business, and
/// most callers of the store (tests, tools, migrations) have none.
package enum AuditTrail {
    /// The events, in the order they are written; usually one, several for one change of many
    /// fields of an account.
    @TaskLocal package static var pending: [AuditEvent] = []

    /// Runs `operation` with `event`, if any, as the pending event.
    package static func recording<Value, Failure: Error>(
        _ event: AuditEvent?, _ operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await recording(event.map { [$0] } ?? [], operation)
    }

    /// Runs `operation` with `events` pending.
    package static func recording<Value, Failure: Error>(
        _ events: [AuditEvent], _ operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        guard !events.isEmpty else { return try await operation() }
        return try await $pending.withValue(events, typed: operation)
    }
}
