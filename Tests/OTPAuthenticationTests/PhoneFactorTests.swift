import OTPAuthentication
import Synchronization
import Testing

/// Records the text messages the service sends, and fails on request.
final class CapturingSMSSender: SMSSender {
    struct Message: Equatable {
        let text: String
        let number: String
    }

    let sent = Mutex<[Message]>([])
    let failure = Mutex<SMSSendError?>(nil)

    func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        if let failure = failure.withLock({ $0 }) { throw failure }
        sent.withLock { $0.append(Message(text: text, number: phoneNumber)) }
    }

    /// The code of the last message, read back from the default template.
    func lastCode() throws -> String {
        let text = try #require(sent.withLock { $0.last?.text })
        let code = String(text.prefix { $0.isNumber })
        try #require(code.count == 6 && text == "\(code) is your OTPKit verification code.", "unexpected message \(text)")
        return code
    }
}

@Suite("Phone second factors")
struct PhoneFactorTests {
    static func configuration(_ phone: PhoneSettings = PhoneSettings(isEnabled: true, defaultRegion: "US")) -> MultiFactorConfiguration {
        MultiFactorConfiguration(phone: phone)
    }

    static let provider = PhoneAuthProvider.provider()

    /// Enrolls `number` for the signed-in `user` with the code the sender captured.
    static func enrollPhone(_ user: User, _ number: String, sender: CapturingSMSSender, name: String = "Phone") async throws -> MultiFactorInfo {
        let id = try await provider.verifyPhoneNumber(number, multiFactorSession: try await user.multiFactor.session())
        let credential = provider.credential(withVerificationID: id, verificationCode: try sender.lastCode())
        try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: name)
        return try #require(user.multiFactor.enrolledFactors.last)
    }

    /// Sends a code to `hint` for `resolver` and returns the credential of the code received.
    static func signInCredential(_ resolver: MultiFactorResolver, _ hint: MultiFactorInfo, sender: CapturingSMSSender) async throws
        -> PhoneAuthCredential
    {
        let id = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
        return provider.credential(withVerificationID: id, verificationCode: try sender.lastCode())
    }

    @Test("enroll a phone factor, see it masked in hints, sign in with a code sent to the full number")
    func enrollAndSignIn() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Fixture(Self.configuration(), smsSender: sender)
        let user = try await fixture.signIn()
        let info = try await Self.enrollPhone(user, "(201) 555-0123", sender: sender)
        #expect(sender.sent.withLock { $0.map(\.number) } == ["+12015550123"], "national form normalized to E.164")
        #expect(info.factorID == PhoneMultiFactorID)
        #expect(info.phoneNumber == "+12015550123", "the owner sees the whole number")
        #expect(info.displayName == "Phone")

        fixture.nextStep()
        let resolver = try await fixture.resolver()
        let hint = try #require(resolver.hints.first)
        #expect(hint.uid == info.uid)
        #expect(hint.phoneNumber == "+1******0123", "hints mask all but the country code and the last four digits")
        let result = try await resolver.resolveSignIn(
            with: PhoneMultiFactorGenerator.assertion(with: try await Self.signInCredential(resolver, hint, sender: sender)))
        #expect(sender.sent.withLock { $0.last?.number } == "+12015550123", "the code goes to the enrolled number, not the masked hint")
        #expect(result.user.signInSecondFactor == PhoneMultiFactorID)
        #expect(result.user.secondFactorIdentifier == info.uid)
        #expect(result.user.multiFactor.enrolledFactors.map(\.phoneNumber) == ["+1******0123"], "the hints, until a reload")
        try await result.user.multiFactor.reload()
        #expect(result.user.multiFactor.enrolledFactors.map(\.phoneNumber) == ["+12015550123"])
        let restored = try await fixture.service.user(forSessionID: result.user.sessionID, identity: Fixture.identity())
        #expect(restored.multiFactor.enrolledFactors.map(\.phoneNumber) == ["+12015550123"])
    }

    @Test("a user with TOTP and phone factors signs in with either, through one resolver")
    func mixedFactors() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Fixture(Self.configuration(), smsSender: sender)
        let user = try await fixture.signIn()
        let (secret, totp) = try await fixture.enroll(user)
        let phone = try await Self.enrollPhone(user, "+4930123456", sender: sender)
        #expect(user.multiFactor.enrolledFactors.map(\.factorID) == [TOTPMultiFactorID, PhoneMultiFactorID])

        fixture.nextStep()
        let first = try await fixture.resolver()
        #expect(first.hints.map(\.uid) == [totp.uid, phone.uid])
        #expect(first.hints.map(\.phoneNumber) == [nil, "+49****3456"])
        _ = try await first.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: totp.uid, oneTimePassword: try fixture.code(secret)))
        let second = try await fixture.resolver()
        let phoneHint = try #require(second.hints.last)
        let result = try await second.resolveSignIn(
            with: PhoneMultiFactorGenerator.assertion(with: try await Self.signInCredential(second, phoneHint, sender: sender)))
        #expect(result.secondFactor?.uid == phone.uid)
        let third = try await fixture.resolver()
        #expect(
            await authErrorCode {
                _ = try await third.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: phone.uid, oneTimePassword: "123456"))
            } == .multiFactorInfoNotFound, "a TOTP assertion naming a phone factor")
    }

    @Test("a user renames a TOTP and a phone factor: the list, a sign-in's hints and the audit log show it; no one else's factor")
    func renameFactors() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Fixture(Self.configuration(), smsSender: sender)
        let user = try await fixture.signIn()
        let (_, totp) = try await fixture.enroll(user)
        let phone = try await Self.enrollPhone(user, "+4930123456", sender: sender)
        try await user.multiFactor.renameFactor(withUID: totp.uid, to: "Pixel <8>")
        try await user.multiFactor.renameFactor(withUID: phone.uid, to: "")
        #expect(user.multiFactor.enrolledFactors.map(\.displayName) == ["Pixel <8>", nil], "the user's own list, at once")
        try await user.multiFactor.reload()
        #expect(user.multiFactor.enrolledFactors.map(\.displayName) == ["Pixel <8>", nil], "the stored names")
        #expect(user.multiFactor.enrolledFactors.map(\.phoneNumber) == [nil, "+4930123456"], "the number unchanged")
        fixture.nextStep()
        #expect(try await fixture.resolver().hints.map(\.displayName) == ["Pixel <8>", nil])

        let other = try await fixture.signIn(Fixture.identity("mallory", email: "mallory@example.com"))
        #expect(await authErrorCode { try await other.multiFactor.renameFactor(withUID: totp.uid, to: "Mine") } == .multiFactorInfoNotFound)
        #expect(await authErrorCode { try await user.multiFactor.renameFactor(withUID: "no-such-factor", to: "x") } == .multiFactorInfoNotFound)
        let events = try await fixture.service.administration.auditEvents(AuditQuery(userID: user.uid, kinds: [.factorRenamed]))
        #expect(events.map(\.factorID) == [phone.uid, totp.uid], "one event per rename, newest first")
        #expect(events.map(\.factorKind) == [.phone, .totp])
        #expect(events.allSatisfy { $0.actor == .user(user.uid) })
    }

    @Test("wrong codes count, the attempt cap and the expiry end the verification, and a code works once")
    func wrongExpiredAndCapped() async throws {
        let sender = CapturingSMSSender()
        let settings = PhoneSettings(isEnabled: true, codeLifetime: 120, maximumAttempts: 2)
        let fixture = try Fixture(Self.configuration(settings), smsSender: sender)
        let user = try await fixture.signIn()
        _ = try await Self.enrollPhone(user, "+12015550123", sender: sender)

        let resolver = try await fixture.resolver()
        let hint = try #require(resolver.hints.first)
        let good = try await Self.signInCredential(resolver, hint, sender: sender)
        let wrong = Self.provider.credential(
            withVerificationID: good.verificationID, verificationCode: good.verificationCode == "000000" ? "111111" : "000000")
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: wrong)) }
                == .invalidVerificationCode)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: wrong)) } == .sessionExpired,
            "the second wrong code reaches the cap")
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: good)) }
                == .invalidVerificationID,
            "the capped verification is gone")

        let late = try await Self.signInCredential(resolver, hint, sender: sender)
        fixture.clock.advance(by: 121)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: late)) } == .sessionExpired)

        let fresh = try await fixture.resolver()
        let once = try await Self.signInCredential(fresh, hint, sender: sender)
        _ = try await fresh.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: once))
        let next = try await fixture.resolver()
        #expect(
            await authErrorCode { _ = try await next.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: once)) } == .invalidVerificationID,
            "a spent code does not complete another sign-in")
        #expect(
            await authErrorCode {
                _ = try await next.resolveSignIn(
                    with: PhoneMultiFactorGenerator.assertion(
                        with: Self.provider.credential(withVerificationID: once.verificationID, verificationCode: "")))
            } == .missingVerificationCode)
    }

    @Test("sends are throttled per number and per user in a window, and capped per number per day")
    func throttling() async throws {
        let sender = CapturingSMSSender()
        let settings = PhoneSettings(isEnabled: true, sendWindow: 600, sendsPerNumber: 2, sendsPerUser: 3, dailySendsPerNumber: 3)
        let fixture = try Fixture(Self.configuration(settings), smsSender: sender)
        let user = try await fixture.signIn()
        let session = try await user.multiFactor.session()
        _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: session)
        _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: session)
        #expect(
            await authErrorCode { _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: session) } == .tooManyRequests,
            "a third code to one number in the window")
        _ = try await Self.provider.verifyPhoneNumber("+12015550124", multiFactorSession: session)
        #expect(
            await authErrorCode { _ = try await Self.provider.verifyPhoneNumber("+12015550125", multiFactorSession: session) } == .tooManyRequests,
            "a fourth code for one user in the window")
        #expect(sender.sent.withLock { $0.count } == 3)

        fixture.clock.advance(by: 600)
        let again = try await fixture.signIn()
        _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: try await again.multiFactor.session())
        let other = try await fixture.signIn(Fixture.identity("bob"))
        #expect(
            await authErrorCode {
                _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: try await other.multiFactor.session())
            } == .quotaExceeded, "a fourth code to one number in a day")
    }

    @Test("test numbers get their fixed code, no message and no throttling, and cannot be enrolled twice")
    func testNumbers() async throws {
        let sender = CapturingSMSSender()
        let settings = PhoneSettings(isEnabled: true, testPhoneNumbers: ["+15555550100": "424242"], sendsPerNumber: 1, sendsPerUser: 1)
        let fixture = try Fixture(Self.configuration(settings), smsSender: sender)
        let user = try await fixture.signIn()
        var id = ""
        for _ in 0..<5 {
            id = try await Self.provider.verifyPhoneNumber("+1 555 555 0100", multiFactorSession: try await user.multiFactor.session())
        }
        try await user.multiFactor.enroll(
            with: PhoneMultiFactorGenerator.assertion(with: Self.provider.credential(withVerificationID: id, verificationCode: "424242")),
            displayName: nil)
        #expect(sender.sent.withLock { $0.isEmpty }, "no message to a test number")
        #expect(
            await authErrorCode {
                _ = try await Self.provider.verifyPhoneNumber("+15555550100", multiFactorSession: try await user.multiFactor.session())
            } == .secondFactorAlreadyEnrolled)
        let resolver = try await fixture.resolver()
        #expect(resolver.hints[0].phoneNumber == "+*******0100", "a test number masked all but its last four digits")
        let signInID = try await Self.provider.verifyPhoneNumber(with: resolver.hints[0], multiFactorSession: resolver.session)
        _ = try await resolver.resolveSignIn(
            with: PhoneMultiFactorGenerator.assertion(with: Self.provider.credential(withVerificationID: signInID, verificationCode: "424242")))
    }

    @Test("test numbers need no sender; without one any other number is operationNotAllowed")
    func testNumbersWithoutASender() async throws {
        let fixture = try Fixture(Self.configuration(PhoneSettings(isEnabled: true, testPhoneNumbers: ["+15555550100": "424242"])))
        let user = try await fixture.signIn()
        #expect(
            await authErrorCode {
                _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: try await user.multiFactor.session())
            } == .operationNotAllowed)
        let id = try await Self.provider.verifyPhoneNumber("+15555550100", multiFactorSession: try await user.multiFactor.session())
        try await user.multiFactor.enroll(
            with: PhoneMultiFactorGenerator.assertion(with: Self.provider.credential(withVerificationID: id, verificationCode: "424242")),
            displayName: nil)
        #expect(fixture.store.phoneFactors(userID: "alice").count == 1)
    }

    @Test("numbers libphonenumber rejects are invalidPhoneNumber, with a message saying why and not repeating the number")
    func invalidNumbers() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Fixture(Self.configuration(PhoneSettings(isEnabled: true)), smsSender: sender)
        let session = try await (try await fixture.signIn()).multiFactor.session()
        for text in ["+1 201", "+999 123 456 789", "call me maybe", "2015550123", ""] {
            let error = await #expect(throws: AuthError.self, "\(text)") {
                _ = try await Self.provider.verifyPhoneNumber(text, multiFactorSession: session)
            }
            #expect(error?.code == .invalidPhoneNumber, "\(text): \(String(describing: error))")
            #expect(error?.code.serverCode == "INVALID_PHONE_NUMBER")
            if !text.isEmpty { #expect(error?.message.contains(text) == false) }
        }
        #expect(sender.sent.withLock { $0.isEmpty })
    }

    @Test("a failed send is internalError with the sender's error underneath, and leaves no usable verification id")
    func failedSend() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Fixture(Self.configuration(), smsSender: sender)
        let user = try await fixture.signIn()
        sender.failure.withLock { $0 = SMSSendError(.rejected("HTTP 500"), sender: "test") }
        let error = await #expect(throws: AuthError.self) {
            _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: try await user.multiFactor.session())
        }
        #expect(error?.code == .internalError)
        #expect(error?.message == "the text message with the code could not be sent: try again later")
        #expect((error?.underlyingError as? SMSSendError)?.reason == .rejected("HTTP 500"))
        #expect(fixture.store.phoneFactors(userID: "alice").isEmpty)
        sender.failure.withLock { $0 = nil }
        _ = try await Self.enrollPhone(user, "+12015550123", sender: sender)
    }

    @Test("disabled phone factors are operationNotAllowed; enabling them needs a sender; unenrolling removes one")
    func settingsAndUnenroll() async throws {
        let disabled = try Fixture()
        let user = try await disabled.signIn()
        #expect(
            await authErrorCode {
                _ = try await Self.provider.verifyPhoneNumber("+12015550123", multiFactorSession: try await user.multiFactor.session())
            }
                == .operationNotAllowed)
        #expect(throws: MultiFactorConfigurationError.missingSMSSender) {
            _ = try MultiFactorService(configuration: Self.configuration(), store: InMemoryAuthStore())
        }
        #expect(throws: MultiFactorConfigurationError.self) {
            _ = try MultiFactorService(
                configuration: Self.configuration(PhoneSettings(isEnabled: true, testPhoneNumbers: ["555 0100": "123456"])),
                store: InMemoryAuthStore(), smsSender: CapturingSMSSender())
        }

        let sender = CapturingSMSSender()
        let fixture = try Fixture(Self.configuration(), smsSender: sender)
        let owner = try await fixture.signIn()
        let info = try await Self.enrollPhone(owner, "+12015550123", sender: sender)
        try await owner.multiFactor.unenroll(with: info)
        #expect(owner.multiFactor.enrolledFactors.isEmpty)
        #expect(fixture.store.phoneFactors(userID: "alice").isEmpty)
        _ = try await fixture.signIn()
    }
}
