import OTPAuthentication
import OTPAuthenticationSQLite
import Synchronization
import Testing

@Suite("Phone factors on SQLite")
struct PhoneOnSQLiteTests {
    /// Keeps the last message's code, as a phone would.
    final class Inbox: SMSSender {
        let last = Mutex<(text: String, number: String)?>(nil)

        func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
            last.withLock { $0 = (text, phoneNumber) }
        }

        func code() throws -> String {
            let text = try #require(last.withLock { $0?.text })
            return String(text.prefix(6))
        }
    }

    static let configuration = MultiFactorConfiguration(phone: PhoneSettings(isEnabled: true, sendsPerNumber: 10, dailySendsPerNumber: 20))

    @Test("enroll a phone factor, restart, sign in with a code; the pending code and its wrong attempts live in the file, not the process")
    func enrollRestartSignIn() async throws {
        let database = try TestDatabase()
        let clock = ManualAuthClock(ServiceOnSQLiteTests.start)
        let inbox = Inbox()
        let provider = PhoneAuthProvider.provider()

        let first = try await database.open()
        let service = try MultiFactorService(configuration: Self.configuration, store: first, clock: clock, smsSender: inbox)
        let user = try await service.signIn(ServiceOnSQLiteTests.alice)
        let id = try await provider.verifyPhoneNumber("+44 20 7946 0958", multiFactorSession: try await user.multiFactor.session())
        #expect(inbox.last.withLock { $0?.number } == "+442079460958")
        try await user.multiFactor.enroll(
            with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: id, verificationCode: try inbox.code())),
            displayName: "Mobile")
        let resolver = try await ServiceOnSQLiteTests.resolver(service)
        let pending = try await provider.verifyPhoneNumber(with: resolver.hints[0], multiFactorSession: resolver.session)
        let wrong = provider.credential(withVerificationID: pending, verificationCode: try inbox.code() == "000000" ? "111111" : "000000")
        let error = await #expect(throws: AuthError.self) {
            _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: wrong))
        }
        #expect(error?.code == .invalidVerificationCode)
        try await first.close()

        // A new process: the pending sign-in, its code and the wrong attempt are in the file.
        let second = try await database.open()
        let restarted = try MultiFactorService(configuration: Self.configuration, store: second, clock: clock, smsSender: inbox)
        #expect(try await second.phoneVerification(id: pending)?.failedAttempts == 1)
        let resumed = try await ServiceOnSQLiteTests.resolver(restarted)
        #expect(resumed.hints.map(\.phoneNumber) == ["+44******0958"])
        let code = try await provider.verifyPhoneNumber(with: resumed.hints[0], multiFactorSession: resumed.session)
        let result = try await resumed.resolveSignIn(
            with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: code, verificationCode: try inbox.code())))
        #expect(result.user.signInSecondFactor == PhoneMultiFactorID)
        #expect(result.user.multiFactor.enrolledFactors.map(\.displayName) == ["Mobile"])
        try await second.close()
    }
}
