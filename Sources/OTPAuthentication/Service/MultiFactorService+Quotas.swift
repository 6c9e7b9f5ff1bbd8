extension MultiFactorService {
    /// Counts one use of the quota under `key` now, through the store, so that every process of
    /// one store counts together: what a host's own request limits (per client address, per
    /// account) are kept in.
    ///
    /// Keys share the store with the service's own quotas (`sms-number:`, `password-source:`, …):
    /// give them a prefix of the host's own.
    ///
    /// - Parameters:
    ///   - key: What is counted, such as `throttle:sign-in:ip:192.0.2.1`.
    ///   - window: The seconds over which `limit` uses are allowed.
    ///   - limit: The uses allowed at once, and per `window` after; the bucket drains one each
    ///     `window / limit` seconds (``QuotaBucket``).
    /// - Returns: The store's outcome: allowed with the uses left at once, or refused until the
    ///   bucket has room.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/internalError`` when the store fails.
    public func consumeQuota(key: String, window: Int64, limit: Int) async throws(AuthError) -> QuotaConsumption {
        let now = clock.now()
        return try await storeCall("counting a request") { try await store.consumeQuota(key: key, window: window, limit: limit, at: now) }
    }
}
