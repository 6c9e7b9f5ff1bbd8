internal import CoreMetrics

/// What the routes count beyond requests and their latency (which the host's HTTP middleware
/// records): second-factor codes accepted and refused, and requests refused by ``RequestLimits``.
///
/// Every series is made when the routes are, so a scrape shows each at 0 before it first moves.
struct IdentityToolkitMetrics: Sendable {
    /// Where a code was checked.
    enum Verification: String, CaseIterable, Sendable {
        case signIn = "mfa_sign_in"
        case enrollment = "mfa_enrollment"
    }

    private let accepted: [Verification: Counter]
    private let refused: [Verification: Counter]
    private let throttled: [String: Counter]

    static let verificationsLabel = "otpkit_verifications_total"
    static let throttledLabel = "otpkit_throttled_requests_total"

    init(factory: any MetricsFactory) {
        func verification(_ outcome: String) -> [Verification: Counter] {
            Dictionary(
                uniqueKeysWithValues: Verification.allCases.map { kind in
                    (kind, Counter(label: Self.verificationsLabel, dimensions: [("kind", kind.rawValue), ("outcome", outcome)], factory: factory))
                })
        }
        accepted = verification("accepted")
        refused = verification("refused")
        var throttled: [String: Counter] = [:]
        for operation in RequestLimits.Operation.allCases {
            for scope in operation.scopes {
                throttled[Self.key(operation, scope)] = Counter(
                    label: Self.throttledLabel, dimensions: [("operation", operation.rawValue), ("scope", scope.rawValue)], factory: factory)
            }
        }
        self.throttled = throttled
    }

    func verified(_ kind: Verification, accepted isAccepted: Bool) {
        (isAccepted ? accepted : refused)[kind]?.increment()
    }

    func throttled(_ operation: RequestLimits.Operation, _ scope: RequestLimits.Scope) {
        throttled[Self.key(operation, scope)]?.increment()
    }

    private static func key(_ operation: RequestLimits.Operation, _ scope: RequestLimits.Scope) -> String {
        operation.rawValue + "/" + scope.rawValue
    }
}
