import OTPCore
internal import Synchronization

// The prepared keys of TOTP factors: the service's one cache, kept in `verifiers`.
extension MultiFactorService {
    /// The largest number of prepared keys kept; past it the cache starts over.
    static let verifierCacheLimit = 100_000

    /// A factor's prepared key and the highest step known to be accepted (a hint: the store's
    /// compare-and-set decides). A class, so the hot path updates the hint without a second lookup.
    final class Verifier: Sendable {
        let userID: String
        let totp: TOTP
        private let knownStep: Atomic<UInt64>
        private static let none = UInt64.max

        init(userID: String, totp: TOTP, lastAcceptedStep: UInt64?) {
            self.userID = userID
            self.totp = totp
            self.knownStep = Atomic(lastAcceptedStep ?? Self.none)
        }

        var lastAcceptedStep: UInt64? {
            let step = knownStep.load(ordering: .relaxed)
            return step == Self.none ? nil : step
        }

        func noteAccepted(_ step: UInt64) {
            var current = knownStep.load(ordering: .relaxed)
            while current == Self.none || current < step {
                let (exchanged, original) = knownStep.compareExchange(expected: current, desired: step, ordering: .relaxed)
                if exchanged { return }
                current = original
            }
        }
    }

    func cachedVerifier(_ enrollmentID: String) -> Verifier? {
        verifierCache.withLock { $0[enrollmentID] }
    }

    @discardableResult
    func cacheVerifier(_ record: FactorRecord) throws(AuthError) -> Verifier {
        let verifier = try Self.newVerifier(record)
        verifierCache.withLock { cache in
            if cache.count >= Self.verifierCacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[record.id] = verifier
        }
        return verifier
    }

    /// The prepared keys of `records`, in order; those not cached yet are prepared and cached.
    func verifiers(for records: [FactorRecord]) throws(AuthError) -> [Verifier] {
        // The usual case, every key cached, takes the lock once. Indices rather than iteration,
        // which would copy every record (retaining each of its strings) to read its id.
        var found = verifierCache.withLock { cache in
            var found: [Verifier] = []
            found.reserveCapacity(records.count)
            for index in records.indices {
                guard let verifier = cache[records[index].id] else { break }
                found.append(verifier)
            }
            return found
        }
        for record in records[found.count...] {
            if let cached = cachedVerifier(record.id) {
                found.append(cached)
            } else {
                found.append(try cacheVerifier(record))
            }
        }
        return found
    }

    private static func newVerifier(_ record: FactorRecord) throws(AuthError) -> Verifier {
        do {
            let totp = try TOTP(secret: record.secret, algorithm: record.algorithm, digits: record.digits, period: record.period)
            return Verifier(userID: record.userID, totp: totp, lastAcceptedStep: record.lastAcceptedStep)
        } catch {
            throw AuthError(.internalError, "the stored factor \(record.id) has unusable parameters: \(error)")
        }
    }

    func forgetVerifier(_ enrollmentID: String) {
        _ = verifierCache.withLock { $0.removeValue(forKey: enrollmentID) }
    }
}
