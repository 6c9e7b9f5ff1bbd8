extension MultiFactorService {
    /// The event of `kind` about `userID` at the service's time, with who acts and from where
    /// taken from the current ``AuditContext``; `nil` when the audit log is off.
    ///
    /// The actor is the context's, else `actor`, else the user `userID` acting for themselves.
    func auditEvent(
        _ kind: AuditEventKind, userID: String?, actor: AuditActor? = nil, factorKind: FactorKind? = nil, factorID: String? = nil,
        provider: String? = nil, reason: String? = nil
    ) -> AuditEvent? {
        guard configuration.auditLog.isEnabled else { return nil }
        let context = AuditContext.current
        return AuditEvent(
            time: clock.now(), kind: kind, userID: userID, actor: context.actor ?? actor ?? userID.map(AuditActor.user) ?? .anonymous,
            factorKind: factorKind, factorID: factorID, provider: provider, clientAddress: context.clientAddress,
            userAgent: context.userAgent, reason: reason ?? context.reason)
    }

    /// ``storeCall(_:_:)`` with `event` pending (`AuditTrail`): the store writes it in the
    /// transaction of the change `body` makes, or not at all when `body` changes nothing.
    @inline(__always)
    func storeCall<Result>(
        _ operation: String, recording event: AuditEvent?, _ body: () async throws -> Result
    ) async throws(AuthError) -> Result {
        try await storeCall(operation, recording: event.map { [$0] } ?? [], body)
    }

    /// ``storeCall(_:recording:_:)`` with several events pending.
    @inline(__always)
    func storeCall<Result>(
        _ operation: String, recording events: [AuditEvent], _ body: () async throws -> Result
    ) async throws(AuthError) -> Result {
        try await storeCall(operation) { try await AuditTrail.recording(events) { try await body() } }
    }

    /// The events an account change records, one for each security-relevant field it sets (the
    /// profile's name and photo are none): the rule for every path that changes accounts.
    func auditEvents(for changes: AccountChanges, userID: String, actor: AuditActor? = nil) -> [AuditEvent] {
        var events: [AuditEvent] = []
        func add(_ kind: AuditEventKind, provider: String? = nil) {
            if let event = auditEvent(kind, userID: userID, actor: actor, provider: provider) { events.append(event) }
        }
        if let disabled = changes.isDisabled { add(disabled ? .accountDisabled : .accountEnabled) }
        if changes.email != nil { add(.emailChanged) }
        if changes.passwordHash != nil { add(.passwordChanged) }
        switch changes.phone {
        case .set: add(.providerLinked, provider: PhoneAuthProvider.id)
        case .remove: add(.providerUnlinked, provider: PhoneAuthProvider.id)
        case nil: break
        }
        if changes.removesPasswordHash { add(.providerUnlinked, provider: EmailAuthProvider.id) }
        for provider in changes.unlinkedProviders.sorted() { add(.providerUnlinked, provider: provider) }
        return events
    }

    /// Writes `event` alone, for what changes nothing in the store (a refused sign-in that
    /// counted no failure); a failure to write it is logged, never the caller's.
    func recordAuditEvent(_ event: AuditEvent?) async {
        guard let event else { return }
        do {
            try await store.recordAuditEvent(event)
        } catch {
            logger.error("audit event not recorded", metadata: ["kind": "\(event.kind.rawValue)", "error": "\(error)"])
        }
    }
}

extension AccountAdministration {
    /// The audit log's events that match `query`, newest first (an administrator's read).
    public func auditEvents(_ query: AuditQuery) async throws(AuthError) -> [AuditEvent] {
        try await service.storeCall("reading the audit log") { try await service.store.auditEvents(query) }
    }
}
