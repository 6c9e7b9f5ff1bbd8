public import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that guards against a hang (a loop that never ends, a child never
    /// answered): long enough for a test queued behind the rest of the suite on a loaded two-core
    /// machine, where trivial tests have waited 40 s for a thread and a guarded one 100 s, and
    /// short enough that a hang fails the test rather than the whole run's limit.
    public static var hangGuard: Self { .timeLimit(.minutes(5)) }
}
