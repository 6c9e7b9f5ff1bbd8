public import OTPAuthentication

extension AuthStoreConformance {
    /// The rows a durable store's upgrade test writes under its schema from before token buckets
    /// (SQLite 10, PostgreSQL 8): a failure counter with three failures and a full fixed-window
    /// quota, in each backend's own SQL.
    public static let counterKeyBeforeTokenBuckets = "password:ada@example.com"
    /// The quota key of ``counterKeyBeforeTokenBuckets``'s rows.
    public static let quotaKeyBeforeTokenBuckets = "sms-number:+12015550123"

    /// Checks a store opened on those rows after its migration at `migratedAt` (Unix seconds): the
    /// counter kept and dated at the migration (so a purge forgetting failures older than a minute
    /// keeps it), the quota starting again as a token bucket.
    ///
    /// - Throws: ``AuthStoreConformanceFailure`` when the store misbehaves.
    public static func checkUpgradedCounters(_ store: any AuthStore, migratedAt: Int64) async throws {
        try checkEqual(
            try await store.failureCounter(key: counterKeyBeforeTokenBuckets), FailureCounter(consecutiveFailures: 3, lockedUntil: nil),
            "a counter from before the migration")
        try await store.purgeExpired(before: migratedAt, failuresCountedBefore: migratedAt - 60)
        try checkEqual(
            try await store.failureCounter(key: counterKeyBeforeTokenBuckets).consecutiveFailures, 3,
            "a counter dated at the migration, not at the epoch")
        try checkEqual(
            try await store.consumeQuota(key: quotaKeyBeforeTokenBuckets, window: 3_600, limit: 5, at: 100), .allowed(remaining: 4),
            "a quota starting again as a token bucket")
    }
}
