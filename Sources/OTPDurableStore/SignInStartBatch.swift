package import OTPEnrollment

/// Many first steps of sign-ins decided together (`EnrollmentStore.factorsStartingSignIn`): the
/// factors of every user of the batch are read in one statement per kind, and the pending
/// credentials of the users who have any are stored in one more.
package struct SignInStartBatch: Sendable {
    /// Each request's factors, in the order of the requests.
    package private(set) var factors: [SignInFactors] = []
    /// The credentials to store: those of the requests whose user has a factor.
    package private(set) var credentials: [PendingSignInRecord] = []

    /// Decides `requests` given every factor of their users, each kind in enrolment order.
    package init(_ requests: [PendingSignInRecord], totp: [FactorRecord], phone: [PhoneFactorRecord]) {
        let totpByUser = Dictionary(grouping: totp, by: \.userID)
        let phoneByUser = Dictionary(grouping: phone, by: \.userID)
        for request in requests {
            let found = SignInFactors(totp: totpByUser[request.userID] ?? [], phone: phoneByUser[request.userID] ?? [])
            factors.append(found)
            if !found.isEmpty { credentials.append(request) }
        }
    }

    /// The users whose factors the batch reads.
    package static func users(of requests: [PendingSignInRecord]) -> [String] {
        Array(Set(requests.map(\.userID)))
    }
}
