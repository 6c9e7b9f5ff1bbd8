extension MultiFactorService {
    /// Every kind of second factor the service knows, in the order lists and hints show them: TOTP
    /// first, so that a sign-in's prepared keys line up with its first hints.
    static let factorKinds: [any SecondFactorKind] = [TOTPFactorKind(), PhoneFactorKind(), RecoveryCodeFactorKind()]

    /// The user's factors as the owner sees them (phone numbers whole), kind by kind, each oldest first.
    func enrolledFactors(userID: String) async throws(AuthError) -> [MultiFactorInfo] {
        var factors: [MultiFactorInfo] = []
        for kind in Self.factorKinds {
            factors += try await kind.enrolledFactors(userID: userID, in: self)
        }
        return factors
    }

    /// The hints of a sign-in whose first step read `factors`, kind by kind.
    func hints(among factors: SignInFactors) -> [MultiFactorInfo] {
        var hints: [MultiFactorInfo] = []
        hints.reserveCapacity(factors.totp.count + factors.phone.count)
        for kind in Self.factorKinds {
            kind.appendHints(among: factors, to: &hints)
        }
        return hints
    }

    /// Removes the factor `enrollmentID` of `userID`, of whichever kind it is: whether there was one.
    func removeFactor(_ enrollmentID: String, userID: String) async throws(AuthError) -> Bool {
        for kind in Self.factorKinds {
            if try await kind.removeFactor(enrollmentID, userID: userID, in: self) { return true }
        }
        return false
    }
}
