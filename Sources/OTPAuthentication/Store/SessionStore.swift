/// Sessions: what a refresh token names, from a sign-in until it ends.
///
/// A requirement of ``AuthStore``. Sessions beyond a user's limit end oldest first,
/// whichever operation stores them.
public protocol SessionStore: Sendable {
    /// Stores a signed-in session; when its user then has more than `maximumPerUser` sessions, ends
    /// the oldest (in the order they were stored) until `maximumPerUser` remain. Returns how many
    /// ended. The new session is never among them.
    @discardableResult
    func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws -> Int

    /// The session with `id`, or `nil` when it never existed or was ended.
    func session(id: String) async throws -> SessionRecord?

    /// The sessions of `userID` that were not ended, oldest sign-in first (by
    /// ``SessionRecord/authenticatedAt``, then id); expired ones the purge has not reached yet
    /// among them.
    func sessions(userID: String) async throws -> [SessionRecord]

    /// Records a use of session `id`: sets its ``SessionRecord/lastUsedAt`` and
    /// ``SessionRecord/expiresAt``. Returns `false`, changing nothing, when there is no such session.
    @discardableResult
    func extendSession(id: String, lastUsedAt: Int64, expiresAt: Int64) async throws -> Bool

    /// Ends the session `id`, if any.
    func removeSession(id: String) async throws

    /// Ends every session of `userID` except `keptSessionID`; returns how many ended.
    @discardableResult
    func removeSessions(userID: String, except keptSessionID: String?) async throws -> Int

    /// Ends every session of `userID` that completed sign-in with the second factor
    /// `enrollmentID`; returns how many ended.
    @discardableResult
    func removeSessions(userID: String, signedInWith enrollmentID: String) async throws -> Int
}
