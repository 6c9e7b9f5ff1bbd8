extension User {
    /// The user's sessions that have not ended, oldest sign-in first, this one among them:
    /// where the account is signed in (OTPKit's addition, for an account page).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` when this session ended, or
    ///   ``AuthErrorCode/internalError``.
    public func activeSessions() async throws(AuthError) -> [SessionRecord] {
        let now = service.clock.now()
        _ = try await service.liveSession(self)
        let userID = uid
        return try await service.storeCall("listing sessions") { try await service.store.sessions(userID: userID) }.filter { now <= $0.expiresAt }
    }

    /// Ends the user's session `sessionID`, another one of theirs (signing out a lost device);
    /// ending this session is ``signOut()``.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` when this session ended,
    ///   ``AuthErrorCode/invalidUserToken`` when `sessionID` is no session of the user's (or
    ///   this one), or ``AuthErrorCode/internalError``.
    public func endSession(id sessionID: String) async throws(AuthError) {
        _ = try await service.liveSession(self)
        guard sessionID != self.sessionID,
            let session = try await service.storeCall("reading a session", { try await service.store.session(id: sessionID) }),
            session.userID == uid
        else { throw AuthError(.invalidUserToken, "the user has no other session with this id: list them with activeSessions()") }
        let event = service.auditEvent(.signedOut, userID: uid, reason: "ended from another session")
        try await service.storeCall("ending a session", recording: event) { try await service.store.removeSession(id: sessionID) }
    }

    /// Ends every session of the user but this one; how many ended.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` when this session ended, or
    ///   ``AuthErrorCode/internalError``.
    @discardableResult
    public func endOtherSessions() async throws(AuthError) -> Int {
        _ = try await service.liveSession(self)
        let (userID, kept) = (uid, sessionID)
        let event = service.auditEvent(.sessionsRevoked, userID: userID, reason: "all but the session that asked")
        return try await service.storeCall("ending sessions", recording: event) {
            try await service.store.removeSessions(userID: userID, except: kept)
        }
    }
}
