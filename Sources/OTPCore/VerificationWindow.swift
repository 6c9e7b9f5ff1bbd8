/// How many time steps around the current one a verifier accepts, to absorb clock drift and the
/// time a person takes to type a code.
public struct VerificationWindow: Sendable, Hashable {
    /// The largest number of steps on either side.
    public static let maximumSteps = 100

    /// Steps before the current one.
    public let behind: Int
    /// Steps after the current one.
    public let ahead: Int

    /// A window of `behind` earlier and `ahead` later steps.
    /// - Throws: ``OTPError/invalidWindow(behind:ahead:)`` when either is negative or above ``maximumSteps``.
    public init(behind: Int, ahead: Int) throws(OTPError) {
        let range = 0...Self.maximumSteps
        guard range.contains(behind), range.contains(ahead) else { throw .invalidWindow(behind: behind, ahead: ahead) }
        self.behind = behind
        self.ahead = ahead
    }

    /// Firebase's `adjacentIntervals`: `steps` on each side.
    public init(adjacentIntervals steps: Int) throws(OTPError) {
        try self.init(behind: steps, ahead: steps)
    }

    /// The current step only.
    public static let exact = VerificationWindow(unchecked: 0, 0)
    /// One step on each side, the most RFC 6238 section 5.2 recommends.
    public static let oneStep = VerificationWindow(unchecked: 1, 1)
    /// Firebase's default `adjacentIntervals` of 5.
    public static let firebaseDefault = VerificationWindow(unchecked: 5, 5)

    private init(unchecked behind: Int, _ ahead: Int) {
        self.behind = behind
        self.ahead = ahead
    }

    /// The number of candidate steps checked.
    public var candidateCount: Int { behind + ahead + 1 }
}
