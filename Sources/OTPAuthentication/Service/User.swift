internal import Synchronization

/// A signed-in user: who the first factor established, which second factor completed the sign-in,
/// and ``multiFactor`` to manage second factors.
public final class User: Sendable {
    struct Mutable {
        var enrolledFactors: [MultiFactorInfo]
        /// Set when this session was ended from here (signed out, or its own second factor unenrolled).
        var endedWith: AuthError?
    }

    let service: MultiFactorService
    let identity: FirstFactorIdentity
    let secondFactor: MultiFactorInfo?
    private let mutable: Mutex<Mutable>

    init(
        service: MultiFactorService, identity: FirstFactorIdentity, sessionID: String, authenticatedAt: Int64, secondFactor: MultiFactorInfo?,
        enrolledFactors: [MultiFactorInfo], sessionClaims: String?
    ) {
        self.service = service
        self.identity = identity
        self.sessionID = sessionID
        self.sessionClaims = sessionClaims
        self.authenticatedAt = authenticatedAt
        self.secondFactor = secondFactor
        self.mutable = Mutex(Mutable(enrolledFactors: enrolledFactors, endedWith: nil))
    }

    /// The user's id.
    public var uid: String { identity.userID }
    /// The user's email address, if any.
    public var email: String? { identity.email }
    /// Whether the email address is verified.
    public var isEmailVerified: Bool { identity.isEmailVerified }
    /// The first-factor provider's id (`"password"`, `"google.com"`, …).
    public var providerID: String { identity.provider.rawValue }
    /// The account's custom claims as an administrator set them (one JSON object, serialized), if any.
    public var customAttributes: String? { identity.customAttributes }
    /// The id of this sign-in's session; keep it to recognise the session later.
    public let sessionID: String
    /// Claims this session's ID tokens carry beside ``customAttributes`` (one JSON object,
    /// serialized): a custom token's developer claims (``MultiFactorService/signIn(customTokenUID:sessionClaims:)``),
    /// which win over the account's claims of the same name, as in Firebase's tokens. `nil` for none.
    public let sessionClaims: String?
    /// When the user last proved who they are (Unix seconds): the sign-in that started this
    /// session, or the one before it when this session replaced another after a link or a change
    /// of address or password. Firebase's `auth_time` claim; recent-login checks measure from here.
    public let authenticatedAt: Int64
    /// The second factors, enrollment and unenrollment.
    public var multiFactor: MultiFactor { MultiFactor(user: self) }

    /// The kind of second factor that completed the sign-in (`"totp"`), or `nil` when none did
    /// (the `sign_in_second_factor` claim of Firebase's ID token).
    public var signInSecondFactor: String? { secondFactor?.factorID }
    /// The enrollment id of the second factor that completed the sign-in (the
    /// `second_factor_identifier` claim of Firebase's ID token).
    public var secondFactorIdentifier: String? { secondFactor?.uid }

    /// Ends this session (Firebase's `Auth.signOut()`); the user must sign in again.
    public func signOut() async throws(AuthError) {
        try await service.signOut(self)
    }

    /// Reads or changes the user's mutable state in one critical section.
    ///
    /// The only way to the state: a read followed by a write in two calls could lose a concurrent
    /// enroll's or unenroll's change, so every change is one closure.
    func withState<Result>(_ body: (inout Mutable) -> Result) -> Result {
        mutable.withLock { body(&$0) }
    }
}
