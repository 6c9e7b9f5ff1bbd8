extension AccountAdministration {
    /// The sessions of account `id` that have not ended, oldest sign-in first (an administrator's read).
    public func sessions(accountID id: String) async throws(AuthError) -> [SessionRecord] {
        let now = service.clock.now()
        return try await service.storeCall("listing sessions") { try await service.store.sessions(userID: id) }.filter { now <= $0.expiresAt }
    }

    /// How many unused recovery codes account `id` has.
    public func recoveryCodeCount(accountID id: String) async throws(AuthError) -> Int {
        try await service.storeCall("counting recovery codes") { try await service.store.recoveryCodeCount(userID: id) }
    }

    /// Removes the second factor `enrollmentID` of account `id`, of whichever kind, and ends the
    /// sessions it completed: whether the account had it.
    public func removeSecondFactor(accountID id: String, enrollmentID: String) async throws(AuthError) -> Bool {
        guard try await service.removeFactor(enrollmentID, userID: id, actor: .system) else { return false }
        _ = try await service.storeCall("ending the factor's sessions") {
            try await service.store.removeSessions(userID: id, signedInWith: enrollmentID)
        }
        return true
    }

    /// Names the second factor `enrollmentID` of account `id` `displayName` (empty or `nil`: no
    /// name): whether the account has it.
    public func renameSecondFactor(accountID id: String, enrollmentID: String, to displayName: String?) async throws(AuthError) -> Bool {
        try await service.renameFactor(enrollmentID, userID: id, to: displayName.flatMap { $0.isEmpty ? nil : $0 }, actor: .system)
    }

    /// Removes every second factor of account `id` and its recovery codes, and ends the sessions
    /// each factor completed (an administrator's reset for a user who lost them: they sign in with
    /// the first factor alone until they enroll again). Each factor's removal is an audit event of
    /// its own, with the ``AuditContext``'s actor and reason; the number of factors removed.
    @discardableResult
    public func resetSecondFactors(accountID id: String) async throws(AuthError) -> Int {
        var removed = 0
        for factor in try await service.enrolledFactors(userID: id) where try await removeSecondFactor(accountID: id, enrollmentID: factor.uid) {
            removed += 1
        }
        let codes = service.auditEvent(.factorRemoved, userID: id, actor: .system, factorKind: .recoveryCode)
        if try await recoveryCodeCount(accountID: id) > 0 {
            try await service.storeCall("removing recovery codes", recording: codes) {
                try await service.store.replaceRecoveryCodes(userID: id, digests: [])
            }
        }
        service.logger.notice("second factors reset by an administrator", metadata: ["user": "\(id)", "factors": "\(removed)"])
        return removed
    }
}
