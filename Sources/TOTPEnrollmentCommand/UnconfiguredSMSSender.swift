internal import OTPAuthentication

/// The sender of a run given no sender option: test numbers need none, and a code for any other
/// number fails with the usage message that names the options.
///
/// The service needs a sender whenever phone factors are on, and the command turns them on for
/// every run, so that a user whose second factor is a phone can always pick it.
struct UnconfiguredSMSSender: SMSSender {
    /// The sender name its errors carry, by which the command recognizes them.
    static let name = "none"

    func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        throw SMSSendError(.misconfigured(SMSOptions.missingSender), sender: Self.name)
    }
}
