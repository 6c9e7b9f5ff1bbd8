/// The audit log's settings (``MultiFactorConfiguration/auditLog``).
public struct AuditSettings: Sendable, Hashable {
    /// Whether security events are recorded (default `true`). Off, no operation writes one.
    public var isEnabled: Bool
    /// How long events are kept, in seconds (default 400 days, as Google Cloud keeps its audit
    /// logs); older ones go at each purge.
    public var retention: Int64

    /// Creates settings.
    public init(isEnabled: Bool = true, retention: Int64 = 400 * 86_400) {
        self.isEnabled = isEnabled
        self.retention = retention
    }
}
