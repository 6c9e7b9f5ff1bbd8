extension MultiFactorService {
    /// The handlers of every kind of second factor, in the order of ``FactorKind``'s cases, which
    /// lists and hints follow: TOTP first, so that a sign-in's prepared keys line up with its
    /// first hints.
    static let factorHandlers: [any FactorHandler] = FactorKind.allCases.map(\.handler)

    /// The user's factors as the owner sees them (phone numbers whole), kind by kind, each oldest first.
    func enrolledFactors(userID: String) async throws(AuthError) -> [MultiFactorInfo] {
        var factors: [MultiFactorInfo] = []
        for kind in Self.factorHandlers {
            factors += try await kind.enrolledFactors(userID: userID, in: self)
        }
        return factors
    }

    /// The hints of a sign-in whose first step read `factors`, kind by kind.
    func hints(among factors: SignInFactors) -> [MultiFactorInfo] {
        var hints: [MultiFactorInfo] = []
        hints.reserveCapacity(FactorKind.allCases.reduce(0) { $0 + factors.count(of: $1) })
        for kind in Self.factorHandlers {
            kind.appendHints(among: factors, to: &hints)
        }
        return hints
    }

    /// Removes the factor `enrollmentID` of `userID`, of whichever kind it is: whether there was
    /// one. `actor` is who the audit event names when the context names nobody (the user by default).
    func removeFactor(_ enrollmentID: String, userID: String, actor: AuditActor? = nil) async throws(AuthError) -> Bool {
        for kind in Self.factorHandlers {
            // Only the kind that has the factor changes anything, so only its event is written.
            let event = auditEvent(.factorRemoved, userID: userID, actor: actor, factorKind: kind.kind, factorID: enrollmentID)
            let removed = try await AuditTrail.recording(event) { () async throws(AuthError) -> Bool in
                try await kind.removeFactor(enrollmentID, userID: userID, in: self)
            }
            if removed { return true }
        }
        return false
    }

    /// Names the factor `enrollmentID` of `userID` `displayName`, of whichever kind it is: whether
    /// there was one. `actor` is as in ``removeFactor(_:userID:actor:)``.
    func renameFactor(_ enrollmentID: String, userID: String, to displayName: String?, actor: AuditActor? = nil) async throws(AuthError) -> Bool {
        for kind in Self.factorHandlers {
            let event = auditEvent(.factorRenamed, userID: userID, actor: actor, factorKind: kind.kind, factorID: enrollmentID)
            let renamed = try await AuditTrail.recording(event) { () async throws(AuthError) -> Bool in
                try await kind.renameFactor(enrollmentID, userID: userID, to: displayName, in: self)
            }
            if renamed { return true }
        }
        return false
    }
}
