import OTPAuthentication
import Testing

/// The phone number as a first factor: Firebase's `verifyPhoneNumber` without a multi-factor
/// session, then `signIn(with:)` or `link(with:)` with the code's credential.
@Suite("Phone number as a first factor")
struct PhoneFirstFactorTests {
    static func fixture(_ sender: CapturingSMSSender) throws -> Fixture {
        try Fixture(
            MultiFactorConfiguration(
                phone: PhoneSettings(isEnabled: true, defaultRegion: "US"), passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap)),
            smsSender: sender)
    }

    /// Sends a code to `number` and returns the credential of the code received.
    static func credential(_ fixture: Fixture, _ number: String, _ sender: CapturingSMSSender) async throws -> PhoneAuthCredential {
        let provider = PhoneAuthProvider.provider(service: fixture.service)
        let id = try await provider.verifyPhoneNumber(number)
        return provider.credential(withVerificationID: id, verificationCode: try sender.lastCode())
    }

    @Test("a number signs in to a new account, then to the same one; the code works once")
    func signInWithNumber() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Self.fixture(sender)
        let first = try await Self.credential(fixture, "(201) 555-0123", sender)
        let created = try await fixture.service.signIn(with: first)
        #expect(created.isNewUser && created.user.providerID == PhoneAuthProvider.id)
        #expect(created.user.providerData.map(\.providerUID) == ["+12015550123"])
        #expect(created.user.providerData.first?.phoneNumber == "+12015550123")
        #expect(sender.sent.withLock { $0.last?.number } == "+12015550123")
        let again = await #expect(throws: AuthError.self) { _ = try await fixture.service.signIn(with: first) }
        #expect(again?.code == .invalidVerificationID)

        let second = try await fixture.service.signIn(with: try await Self.credential(fixture, "+1 201 555 0123", sender))
        #expect(second.user.uid == created.user.uid && !second.isNewUser)
    }

    @Test("wrong codes count down to the cap, which ends the code; a provider without a service cannot send")
    func wrongCodes() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Self.fixture(sender)
        let provider = PhoneAuthProvider.provider(service: fixture.service)
        let id = try await provider.verifyPhoneNumber("+12015550123")
        let right = try sender.lastCode()
        let wrong = right == "000000" ? "111111" : "000000"
        let attempts = fixture.service.configuration.phone.maximumAttempts
        for left in (1..<attempts).reversed() {
            let error = await #expect(throws: AuthError.self) {
                _ = try await fixture.service.signIn(with: provider.credential(withVerificationID: id, verificationCode: wrong))
            }
            #expect(
                error?.code == .invalidVerificationCode && error?.message.contains("\(left) attempts left") == true, "\(String(describing: error))")
        }
        let last = await #expect(throws: AuthError.self) {
            _ = try await fixture.service.signIn(with: provider.credential(withVerificationID: id, verificationCode: wrong))
        }
        #expect(last?.code == .sessionExpired)
        let late = await #expect(throws: AuthError.self) {
            _ = try await fixture.service.signIn(with: provider.credential(withVerificationID: id, verificationCode: right))
        }
        #expect(late?.code == .invalidVerificationID)
        let unbound = await #expect(throws: AuthError.self) { _ = try await PhoneAuthProvider.provider().verifyPhoneNumber("+12015550123") }
        #expect(unbound?.code == .operationNotAllowed)
    }

    @Test("an anonymous user links a number and keeps its uid; a number linked elsewhere is credentialAlreadyInUse")
    func linkNumber() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Self.fixture(sender)
        let guest = try await fixture.service.signInAnonymously()
        let linked = try await guest.link(with: try await Self.credential(fixture, "+12015550123", sender)).user
        #expect(linked.uid == guest.uid && !linked.isAnonymous && linked.providerData.map(\.providerID) == ["phone"])
        #expect(try await fixture.service.signIn(with: try await Self.credential(fixture, "+12015550123", sender)).user.uid == guest.uid)

        let ada = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        let refused = await #expect(throws: AuthError.self) {
            _ = try await ada.link(with: try await Self.credential(fixture, "+12015550123", sender))
        }
        #expect(refused?.code == .credentialAlreadyInUse)
        let credential = try #require(refused?.updatedCredential)
        // The credential carried back has spent its code: the app asks for a new one to sign in.
        #expect("\(credential)" == "AuthCredential(phone)")

        let other = try await ada.link(with: try await Self.credential(fixture, "+12015550199", sender)).user
        #expect(Set(other.providerData.map(\.providerID)) == ["password", "phone"])
        let unlinked = try await other.unlink(fromProvider: PhoneAuthProvider.id)
        #expect(unlinked.providerData.map(\.providerID) == ["password"])
        let fresh = try await fixture.service.signIn(with: try await Self.credential(fixture, "+12015550199", sender))
        #expect(fresh.isNewUser && fresh.user.uid != ada.uid, "an unlinked number signs in to an account of its own")
    }

    @Test("a phone sign-in of an account with a TOTP factor needs it")
    func secondFactorAfterPhone() async throws {
        let sender = CapturingSMSSender()
        let fixture = try Self.fixture(sender)
        let ada = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        _ = try await ada.link(with: try await Self.credential(fixture, "+12015550123", sender))
        // Enrolling needs a verified address, which here only the host can vouch for.
        let vouched = try await fixture.signIn(Fixture.identity(ada.uid, email: "ada@example.com", verified: true))
        let (secret, info) = try await fixture.enroll(vouched)
        fixture.nextStep()
        let error = await #expect(throws: AuthError.self) {
            _ = try await fixture.service.signIn(with: try await Self.credential(fixture, "+12015550123", sender))
        }
        #expect(error?.code == .secondFactorRequired)
        let resolver = try #require(error?.resolver)
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))
        #expect(result.user.uid == ada.uid)
    }
}
