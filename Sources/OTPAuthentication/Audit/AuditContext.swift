internal import OTPCore

/// Who is acting and from where, for the ``AuditEvent``s of the changes made meanwhile: set by
/// whoever serves a request (``with(_:_:)``), read by the service when it records an event.
///
/// A task-local value, as `ServiceContext` is for tracing: the actor and the client's address
/// belong to the request, not to each of the calls it makes, so they travel with the task rather
/// than through every method of the service. Without one, events name ``AuditActor/system``
/// (or the signed-in user, where the service knows it) and no address.
public struct AuditContext: Sendable, Hashable {
    /// Who acts; `nil` lets the service name the user it acts for.
    public var actor: AuditActor?
    /// The client's address.
    public var clientAddress: String?
    /// The client's `User-Agent`.
    public var userAgent: String?
    /// An administrator's stated reason for what they do.
    public var reason: String?

    /// Creates a context.
    public init(actor: AuditActor? = nil, clientAddress: String? = nil, userAgent: String? = nil, reason: String? = nil) {
        self.actor = actor
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.reason = reason
    }

    @TaskLocal static var current = AuditContext()

    /// The context of the current task.
    public static var active: AuditContext { current }

    /// Runs `operation` with `context` as the current context.
    public static func with<Value, Failure: Error>(
        _ context: AuditContext, _ operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await $current.withValue(context, typed: operation)
    }
}
