import Foundation
import OTPCore
import OTPAuthentication
import OTPTestUtilities
import OTPURI
import Testing

/// The flows of Firebase's TOTP multi-factor documentation, step by step.
@Suite("Firebase flows")
struct FirebaseFlowTests {
    @Test("enroll: session, secret, QR URL, authenticator app, first code (from oathtool), enrolled")
    func enroll() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        #expect(user.multiFactor.enrolledFactors.isEmpty)

        let session = try await user.multiFactor.session()
        #expect(!session.isSignInSession)
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        #expect(secret.hashingAlgorithm == "SHA1")
        #expect(secret.codeLength == 6)
        #expect(secret.codeIntervalSeconds == 30)
        #expect(secret.enrollmentCompletionDeadlineTime == Fixture.start + 600)
        #expect(secret.enrollmentCompletionDeadline == Date(timeIntervalSince1970: TimeInterval(Fixture.start + 600)))
        let key = secret.sharedSecretKey()
        #expect(key.count == 32, "20-byte keys are 32 Base32 characters, as Firebase's")
        #expect(key.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) })
        #expect(!String(describing: secret).contains(key), "a TOTPSecret never prints its key")

        let url = secret.generateQRCodeURL(withAccountName: "alice@example.com", issuer: "ExampleApp")
        #expect(url == "otpauth://totp/ExampleApp:alice@example.com?secret=\(key)&issuer=ExampleApp&algorithm=SHA1&digits=6")
        #expect(secret.openInOTPApp(withQRCodeURL: url))
        #expect(fixture.opener.opened.withLock { $0 } == [url])

        let code = try await oathtoolCode(base32: key, at: fixture.clock.now())
        #expect(try fixture.code(secret) == code)
        let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code)
        #expect(assertion.factorID == TOTPMultiFactorID)
        try await user.multiFactor.enroll(with: assertion, displayName: "Work phone")

        let factors = user.multiFactor.enrolledFactors
        #expect(factors.count == 1)
        #expect(factors.first?.factorID == "totp")
        #expect(factors.first?.displayName == "Work phone")
        #expect(factors.first?.enrollmentTime == Fixture.start)
        #expect(factors.first?.enrollmentDate == Date(timeIntervalSince1970: TimeInterval(Fixture.start)))
        try await user.multiFactor.reload()
        #expect(user.multiFactor.enrolledFactors == factors)
        #expect(fixture.store.pendingEnrollment(id: "x") == nil)
    }

    @Test("the QR URL for Firebase's documented example")
    func qrCodeURLExample() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let key = secret.sharedSecretKey()
        #expect(
            secret.generateQRCodeURL(withAccountName: "user@myawesomeapp", issuer: "myawesomeapp")
                == "otpauth://totp/myawesomeapp:user@myawesomeapp?secret=\(key)&issuer=myawesomeapp&algorithm=SHA1&digits=6")
    }

    @Test("openInOTPApp reports when nothing handled the URL")
    func openerFailure() async throws {
        let clock = ManualAuthClock(Fixture.start)
        let opener = RecordingOpener(answer: false)
        let service = try MultiFactorService(store: InMemoryAuthStore(), clock: clock, opener: opener)
        let user = try await service.signIn(Fixture.identity())
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        #expect(!secret.openInOTPApp(withQRCodeURL: "otpauth://totp/x:y?secret=A"))
        #expect(!XDGOpenOpener(command: "otpkit-no-such-opener").open("otpauth://totp/x:y?secret=A"))
    }

    @Test("sign in: secondFactorRequired, resolver hints, code, result records the factor")
    func signInWithSecondFactor() async throws {
        let fixture = try Fixture()
        let (secret, info) = try await fixture.enroll(try await fixture.signIn(), displayName: "Phone")

        fixture.nextStep()
        let resolver = try await fixture.resolver()
        #expect(resolver.hints == [info])
        #expect(resolver.session.isSignInSession)
        let hint = try #require(resolver.hints.first)
        #expect(hint.factorID == TOTPMultiFactorID)
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: try fixture.code(secret))
        let result = try await resolver.resolveSignIn(with: assertion)

        #expect(result.secondFactor == hint)
        #expect(result.user.uid == "alice")
        #expect(result.user.email == "alice@example.com")
        #expect(result.user.providerID == "password")
        #expect(result.user.signInSecondFactor == "totp")
        #expect(result.user.secondFactorIdentifier == hint.uid)
        #expect(result.user.multiFactor.enrolledFactors == [info])
        #expect(fixture.store.session(id: result.user.sessionID)?.secondFactorEnrollmentID == hint.uid)
    }

    @Test("choose among hints: each factor has its own secret and the result names the chosen one")
    func chooseAmongHints() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let (phoneSecret, phone) = try await fixture.enroll(user, displayName: "Phone")
        fixture.clock.advance(by: 1)
        let (tabletSecret, tablet) = try await fixture.enroll(user, displayName: "Tablet")
        #expect(user.multiFactor.enrolledFactors.map(\.displayName) == ["Phone", "Tablet"])
        #expect(phone.uid != tablet.uid)

        fixture.nextStep()
        let resolver = try await fixture.resolver()
        #expect(resolver.hints.map(\.displayName) == ["Phone", "Tablet"])
        let chosen = try #require(resolver.hints.first { $0.displayName == "Tablet" })

        // The phone's code does not open the tablet's factor.
        let wrong = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: chosen.uid, oneTimePassword: try fixture.code(phoneSecret))
        #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: wrong) } == .invalidVerificationCode)

        let right = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: chosen.uid, oneTimePassword: try fixture.code(tabletSecret))
        let result = try await resolver.resolveSignIn(with: right)
        #expect(result.secondFactor == tablet)
        #expect(result.user.secondFactorIdentifier == tablet.uid)
    }

    @Test("unenroll: by info and by uid; with no factor left, sign-in needs no second factor")
    func unenroll() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let (_, first) = try await fixture.enroll(user, displayName: "First")
        let (_, second) = try await fixture.enroll(user, displayName: "Second")

        try await user.multiFactor.unenroll(with: first)
        #expect(user.multiFactor.enrolledFactors == [second])
        #expect(fixture.store.factor(id: first.uid) == nil)
        try await user.multiFactor.unenroll(withFactorUID: second.uid)
        #expect(user.multiFactor.enrolledFactors.isEmpty)
        #expect(fixture.store.factors(userID: "alice").isEmpty)

        let again = try await fixture.signIn()
        #expect(again.signInSecondFactor == nil)
        #expect(again.secondFactorIdentifier == nil)
    }

    @Test("a resolved sign-in can manage factors: unenroll another factor, enroll a new one")
    func manageAfterSecondFactorSignIn() async throws {
        let fixture = try Fixture()
        let first = try await fixture.signIn()
        let (secret, kept) = try await fixture.enroll(first, displayName: "Kept")
        let (_, removed) = try await fixture.enroll(first, displayName: "Removed")

        fixture.nextStep()
        let resolver = try await fixture.resolver()
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: kept.uid, oneTimePassword: try fixture.code(secret)))
        try await result.user.multiFactor.unenroll(with: removed)
        #expect(result.user.multiFactor.enrolledFactors == [kept])
        try await fixture.enroll(result.user, displayName: "New")
        #expect(result.user.multiFactor.enrolledFactors.map(\.displayName) == ["Kept", "New"])
    }

    func oathtoolCode(base32 key: String, at time: Int64) async throws -> String {
        let run = try await ProcessRunner.run(ExternalTool.oathtool.path(), ["--totp", "--base32", "-N", "@\(time)", key])
        try #require(run.status == 0, "oathtool failed: \(run)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension FirebaseFlowTests {
    @Test("QR URLs escape what Firebase would leave broken, and parse back with OTPURI")
    func qrCodeURLEscaping() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let url = secret.generateQRCodeURL(withAccountName: "zoë smith@example.com", issuer: "Acme & Co")
        // The label keeps "&" (it delimits nothing there); the issuer parameter must escape it.
        #expect(
            url
                == "otpauth://totp/Acme%20&%20Co:zo%C3%AB%20smith@example.com?secret=\(secret.sharedSecretKey())&issuer=Acme%20%26%20Co&algorithm=SHA1&digits=6"
        )
        let parsed = try OTPAuthURI(parsing: url, mode: .strict)
        #expect(parsed.issuer == "Acme & Co")
        #expect(parsed.accountName == "zoë smith@example.com")
        #expect(parsed.secret.base32 == secret.sharedSecretKey())
        #expect(parsed.digits == 6)
        #expect(parsed.algorithm == .sha1)
    }
}
