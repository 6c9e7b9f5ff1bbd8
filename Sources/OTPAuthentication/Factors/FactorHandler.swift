/// What the service does with the factors of one ``FactorKind`` (TOTP, phone, recovery codes),
/// where that depends on the kind.
///
/// Listing a user's factors, a sign-in's hints, renaming and removing a factor are written once, over
/// ``MultiFactorService/factorHandlers``; enrolling and completing a sign-in go through the kind's
/// assertion (``VerifiableAssertion``). A new kind is a folder with its conformances and a case of
/// ``FactorKind``, whose `handler` switch the compiler then asks to be decided (ARCHITECTURE.md
/// walks through the rest).
protocol FactorHandler: Sendable {
    /// The kind it handles.
    var kind: FactorKind { get }

    /// Appends this kind's factors among those a sign-in's first step read, as hints show them:
    /// no secret, phone numbers masked, oldest first.
    func appendHints(among factors: SignInFactors, to hints: inout [MultiFactorInfo])

    /// The factors of this kind `userID` has enrolled, as their owner sees them, oldest first.
    func enrolledFactors(userID: String, in service: MultiFactorService) async throws(AuthError) -> [MultiFactorInfo]

    /// Removes `enrollmentID` when it is a factor of this kind of `userID`, with whatever the
    /// service keeps of it: whether it was one.
    func removeFactor(_ enrollmentID: String, userID: String, in service: MultiFactorService) async throws(AuthError) -> Bool

    /// Names `enrollmentID` `displayName` (`nil`: no name) when it is a factor of this kind of
    /// `userID`: whether it was one.
    func renameFactor(_ enrollmentID: String, userID: String, to displayName: String?, in service: MultiFactorService) async throws(AuthError) -> Bool
}
