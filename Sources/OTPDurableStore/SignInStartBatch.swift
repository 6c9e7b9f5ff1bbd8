package import OTPAuthentication

/// Many first steps of sign-ins answered together (`AuthStore.signInFactors`): the factors
/// of every user of the batch, read in one statement per kind.
package struct SignInStartBatch: Sendable {
    /// Each request's factors, in the order of the requests.
    package private(set) var factors: [SignInFactors] = []

    /// Answers the requests for the factors of `users` given every factor of theirs, each kind in
    /// enrolment order.
    package init(_ users: [String], totp: [FactorRecord], phone: [PhoneFactorRecord], passkeys: [PasskeyRecord]) {
        let totpByUser = Dictionary(grouping: totp, by: \.userID)
        let phoneByUser = Dictionary(grouping: phone, by: \.userID)
        let passkeysByUser = Dictionary(grouping: passkeys, by: \.userID)
        factors = users.map { SignInFactors(totp: totpByUser[$0] ?? [], phone: phoneByUser[$0] ?? [], passkeys: passkeysByUser[$0] ?? []) }
    }

    /// The users whose factors the batch reads, each once.
    package static func users(of requests: [String]) -> [String] {
        Array(Set(requests))
    }
}
