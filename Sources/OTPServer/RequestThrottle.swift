internal import OTPAuthentication

/// ``RequestLimits`` applied through the service's store quotas: a request over a limit is
/// refused with `TOO_MANY_ATTEMPTS_TRY_LATER` before anything of it is done.
struct RequestThrottle: Sendable {
    let service: MultiFactorService
    let limits: RequestLimits
    let metrics: IdentityToolkitMetrics

    /// Counts one `operation` from the client at `address`; `nil` (a host without addresses)
    /// counts nothing.
    func admit(_ operation: RequestLimits.Operation, address: String?) async throws(IdentityToolkitError) {
        guard let address else { return }
        try await admit(operation, .address, key: address, who: "from this address")
    }

    /// Counts one `operation` for `account` (a user id, or the email address of a password sign-in).
    func admit(_ operation: RequestLimits.Operation, account: String) async throws(IdentityToolkitError) {
        try await admit(operation, .account, key: account, who: "for this account")
    }

    private func admit(
        _ operation: RequestLimits.Operation, _ scope: RequestLimits.Scope, key: String, who: String
    ) async throws(IdentityToolkitError) {
        guard let limit = limits.limit(operation, scope) else { return }
        let quotaKey = "throttle:\(operation.rawValue):\(scope.rawValue):\(key)"
        let outcome: QuotaConsumption
        do {
            outcome = try await service.consumeQuota(key: quotaKey, window: limits.window, limit: limit)
        } catch {
            throw IdentityToolkitError(error)
        }
        guard case .exceeded(let until) = outcome else { return }
        metrics.throttled(operation, scope)
        throw IdentityToolkitError(
            "TOO_MANY_ATTEMPTS_TRY_LATER", "too many \(Self.noun(operation)) \(who): try again in \(max(1, until - service.clock.now())) seconds")
    }

    private static func noun(_ operation: RequestLimits.Operation) -> String {
        switch operation {
        case .signIn: "sign-in attempts"
        case .verification: "verification codes"
        case .codeSend: "text messages"
        case .signUp: "new accounts"
        case .passwordChange: "new passwords"
        case .emailSend: "emails"
        }
    }
}
