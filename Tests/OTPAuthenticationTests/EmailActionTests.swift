import Foundation
import OTPAuthentication
import Synchronization
import Testing

/// Email actions through the service: password resets, address verifications, changes of address
/// and sign-in links, with the messages a sender is handed read back as a user reads them.
@Suite("Email actions")
struct EmailActionTests {
    /// Keeps every message it is handed; fails every send while `failing`.
    final class Outbox: EmailSender {
        let messages = Mutex<[EmailMessage]>([])
        let failing = Mutex(false)

        func send(_ message: EmailMessage) async throws(EmailSendError) {
            messages.withLock { $0.append(message) }
            if failing.withLock({ $0 }) { throw EmailSendError(.unreachable("connection refused"), sender: "test") }
        }

        var last: EmailMessage? { messages.withLock { $0.last } }
        var count: Int { messages.withLock { $0.count } }

        /// The code of the last message's link, as the action page reads it.
        func lastCode() throws -> String {
            let link = try #require(last?.link)
            let items = try #require(URLComponents(string: link)?.queryItems)
            return try #require(items.first { $0.name == "oobCode" }?.value)
        }
    }

    static func fixture(
        protection: Bool = true, sendsPerAddress: Int = 5, sender: Outbox? = Outbox()
    ) throws -> (Fixture, Outbox) {
        let configuration = MultiFactorConfiguration(
            passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap, emailEnumerationProtection: protection),
            emailActions: EmailActionSettings(
                actionURL: "https://auth.example.com/__/auth/action", apiKey: "web-key", codeLifetime: 3_600, sendsPerAddress: sendsPerAddress,
                appName: "Example"))
        let outbox = sender ?? Outbox()
        return (try Fixture(configuration, emailSender: sender), outbox)
    }

    @Test("a password reset: the link's code sets a new password once, verifies the address and ends every session")
    func passwordReset() async throws {
        let (fixture, outbox) = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "ada@example.com", password: "old password")
        try await fixture.service.sendPasswordReset(
            withEmail: "ADA@example.com", actionCodeSettings: ActionCodeSettings(continueURL: "https://app.example.com/done?x=1&y=2"))
        let message = try #require(outbox.last)
        #expect(message.to == "ada@example.com" && message.kind == .passwordReset)
        #expect(message.subject == "Reset your password for Example")
        #expect(message.body.contains(message.link) && message.body.contains("ada@example.com"))
        let link = try #require(URLComponents(string: message.link))
        #expect(link.host == "auth.example.com" && link.path == "/__/auth/action")
        let items = Dictionary(uniqueKeysWithValues: (link.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items["mode"] == "resetPassword" && items["apiKey"] == "web-key" && items["lang"] == "en")
        #expect(items["continueUrl"] == "https://app.example.com/done?x=1&y=2", "\(message.link)")
        let code = try outbox.lastCode()
        #expect(code.count == 43 && code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(code)")

        #expect(try await fixture.service.checkActionCode(code) == ActionCodeInfo(kind: .passwordReset, email: "ada@example.com", newEmail: nil))
        #expect(await authErrorCode { try await fixture.service.confirmPasswordReset(withCode: code, newPassword: "short") } == .weakPassword)
        try await fixture.service.confirmPasswordReset(withCode: code, newPassword: "new password")
        #expect(await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "old password") } != nil)
        let signedIn = try await fixture.service.signIn(withEmail: "ada@example.com", password: "new password")
        #expect(signedIn.uid == user.uid && signedIn.isEmailVerified)
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired, "the session before the reset ended")
        #expect(
            await authErrorCode { try await fixture.service.confirmPasswordReset(withCode: code, newPassword: "third one") } == .invalidActionCode)
        #expect(await authErrorCode { _ = try await fixture.service.checkActionCode(code) } == .invalidActionCode)
    }

    @Test("a code expires after its lifetime, is refused with EXPIRED_OOB_CODE, and a code of another action or none is invalid")
    func expiryAndWrongCodes() async throws {
        let (fixture, outbox) = try Self.fixture()
        _ = try await fixture.service.createUser(withEmail: "bob@example.com", password: "long enough")
        try await fixture.service.sendPasswordReset(withEmail: "bob@example.com")
        let code = try outbox.lastCode()
        #expect(await authErrorCode { try await fixture.service.applyActionCode(code) } == .invalidActionCode, "a reset code is not applied")
        #expect(await authErrorCode { _ = try await fixture.service.signIn(withEmail: "bob@example.com", link: code) } == .invalidActionCode)
        #expect(await authErrorCode { _ = try await fixture.service.checkActionCode("") } == .invalidActionCode)
        #expect(await authErrorCode { _ = try await fixture.service.checkActionCode(String(code.reversed())) } == .invalidActionCode)
        fixture.clock.advance(by: 3_600)
        #expect(try await fixture.service.checkActionCode(code).kind == .passwordReset, "usable at its last second")
        fixture.clock.advance(by: 1)
        #expect(await authErrorCode { _ = try await fixture.service.checkActionCode(code) } == .expiredActionCode)
        #expect(
            await authErrorCode { try await fixture.service.confirmPasswordReset(withCode: code, newPassword: "long enough 2") } == .expiredActionCode
        )
    }

    @Test(
        "an unknown address or a disabled account is answered as a known one under enumeration protection, and is USER_NOT_FOUND or USER_DISABLED without it"
    )
    func unknownAddress() async throws {
        let (protected, outbox) = try Self.fixture()
        try await protected.service.sendPasswordReset(withEmail: "nobody@example.com")
        #expect(outbox.count == 0, "nothing sent to an address without an account")
        let disabled = try await protected.service.createUser(withEmail: "off@example.com", password: "long enough")
        _ = try await protected.service.administration.updateAccount(id: disabled.uid, isDisabled: true)
        try await protected.service.sendPasswordReset(withEmail: "off@example.com")
        #expect(outbox.count == 0, "nothing sent for a disabled account, answered as an unknown address is")
        let (open, _) = try Self.fixture(protection: false)
        #expect(await authErrorCode { try await open.service.sendPasswordReset(withEmail: "nobody@example.com") } == .userNotFound)
        let off = try await open.service.createUser(withEmail: "off@example.com", password: "long enough")
        _ = try await open.service.administration.updateAccount(id: off.uid, isDisabled: true)
        #expect(await authErrorCode { try await open.service.sendPasswordReset(withEmail: "off@example.com") } == .userDisabled)
        #expect(await authErrorCode { try await open.service.sendPasswordReset(withEmail: "not an address") } == .invalidEmail)
    }

    @Test("an address verification marks the address verified; a code for an address the account no longer has is refused")
    func verification() async throws {
        let (fixture, outbox) = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "cat@example.com", password: "long enough")
        #expect(!user.isEmailVerified)
        try await user.sendEmailVerification()
        #expect(outbox.last?.kind == .verifyEmail && outbox.last?.to == "cat@example.com")
        try await fixture.service.applyActionCode(try outbox.lastCode())
        #expect(try await fixture.store.account(id: user.uid)?.isEmailVerified == true)

        try await user.sendEmailVerification()
        let stale = try outbox.lastCode()
        _ = try await fixture.service.administration.updateAccount(id: user.uid, email: "cat2@example.com")
        #expect(await authErrorCode { try await fixture.service.applyActionCode(stale) } == .invalidActionCode)
        #expect(try await fixture.store.account(id: user.uid)?.isEmailVerified == false, "the new address stays unverified")

        let anonymous = try await fixture.service.signInAnonymously()
        #expect(await authErrorCode { try await anonymous.sendEmailVerification() } == .missingEmail)
    }

    @Test("a change of address goes to the new address, needs a recent sign-in, and once followed moves the account and ends its sessions")
    func changeOfAddress() async throws {
        let (fixture, outbox) = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "dan@example.com", password: "long enough")
        _ = try await fixture.service.createUser(withEmail: "taken@example.com", password: "long enough")
        #expect(await authErrorCode { try await user.sendEmailVerification(beforeUpdatingEmail: "taken@example.com") } == .emailAlreadyInUse)
        try await user.sendEmailVerification(beforeUpdatingEmail: "Dan.New@example.com")
        let message = try #require(outbox.last)
        #expect(message.to == "dan.new@example.com" && message.kind == .verifyAndChangeEmail && message.body.contains("dan.new@example.com"))
        let code = try outbox.lastCode()
        #expect(try await fixture.service.checkActionCode(code).newEmail == "dan.new@example.com")
        #expect(try await fixture.store.account(id: user.uid)?.email == "dan@example.com", "nothing changes before the link is followed")
        try await fixture.service.applyActionCode(code)
        let account = try #require(try await fixture.store.account(id: user.uid))
        #expect(account.email == "dan.new@example.com" && account.isEmailVerified)
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
        #expect(try await fixture.service.signIn(withEmail: "dan.new@example.com", password: "long enough").uid == user.uid)

        // Taken between the message and the click: refused, and the code stays usable.
        let again = try await fixture.service.signIn(withEmail: "dan.new@example.com", password: "long enough")
        try await again.sendEmailVerification(beforeUpdatingEmail: "late@example.com")
        let late = try outbox.lastCode()
        _ = try await fixture.service.createUser(withEmail: "late@example.com", password: "long enough")
        #expect(await authErrorCode { try await fixture.service.applyActionCode(late) } == .emailAlreadyInUse)
        #expect(try await fixture.service.checkActionCode(late).kind == .verifyAndChangeEmail)

        fixture.clock.advance(by: 301)
        let old = try await fixture.service.signIn(withEmail: "dan.new@example.com", password: "long enough")
        fixture.clock.advance(by: 301)
        #expect(await authErrorCode { try await old.sendEmailVerification(beforeUpdatingEmail: "x@example.com") } == .requiresRecentLogin)
    }

    @Test("a sign-in link creates the account at its first use and signs in to it after; the address must be the link's")
    func signInLink() async throws {
        let (fixture, outbox) = try Self.fixture()
        let settings = ActionCodeSettings(continueURL: "https://app.example.com/finish", handlesCodeInApp: true)
        try await fixture.service.sendSignInLink(toEmail: "eve@example.com", actionCodeSettings: settings)
        let link = try #require(outbox.last?.link)
        #expect(outbox.last?.subject == "Sign in to Example requested at eve@example.com")
        #expect(await authErrorCode { _ = try await fixture.service.signIn(withEmail: "mallory@example.com", link: link) } == .invalidEmail)
        let first = try await fixture.service.signIn(withEmail: "Eve@example.com", link: link)
        #expect(first.isNewUser && first.user.email == "eve@example.com" && first.user.isEmailVerified)
        #expect(await authErrorCode { _ = try await fixture.service.signIn(withEmail: "eve@example.com", link: link) } == .invalidActionCode)

        try await fixture.service.sendSignInLink(toEmail: "eve@example.com", actionCodeSettings: settings)
        let second = try await fixture.service.signIn(withEmail: "eve@example.com", link: try outbox.lastCode())
        #expect(!second.isNewUser && second.user.uid == first.user.uid)
        #expect(
            await authErrorCode {
                try await fixture.service.sendSignInLink(toEmail: "eve@example.com", actionCodeSettings: ActionCodeSettings(continueURL: "not a url"))
            }
                == .invalidContinueURI)
    }

    @Test(
        "messages to one address are throttled; a message the sender refuses leaves no code; without a sender nothing is sent but an administrator's links work"
    )
    func limitsAndFailures() async throws {
        let (fixture, outbox) = try Self.fixture(sendsPerAddress: 2)
        _ = try await fixture.service.createUser(withEmail: "fay@example.com", password: "long enough")
        try await fixture.service.sendPasswordReset(withEmail: "fay@example.com")
        try await fixture.service.sendPasswordReset(withEmail: "fay@example.com")
        #expect(await authErrorCode { try await fixture.service.sendPasswordReset(withEmail: "fay@example.com") } == .tooManyRequests)
        #expect(outbox.count == 2)

        let (failing, broken) = try Self.fixture()
        _ = try await failing.service.createUser(withEmail: "gus@example.com", password: "long enough")
        broken.failing.withLock { $0 = true }
        let error = await #expect(throws: AuthError.self) { try await failing.service.sendPasswordReset(withEmail: "gus@example.com") }
        #expect(error?.code == .internalError && error?.message.contains("could not be sent") == true)
        #expect(error?.underlyingError is EmailSendError)
        #expect(await authErrorCode { _ = try await failing.service.checkActionCode(try broken.lastCode()) } == .invalidActionCode)

        let (silent, _) = try Self.fixture(sender: nil)
        let hal = try await silent.service.createUser(withEmail: "hal@example.com", password: "long enough")
        #expect(await authErrorCode { try await silent.service.sendPasswordReset(withEmail: "hal@example.com") } == .operationNotAllowed)
        let generated = try await silent.service.administration.emailActionLink(.verifyEmail, email: "hal@example.com")
        #expect(generated.link.contains("mode=verifyEmail") && generated.email == "hal@example.com")
        try await silent.service.applyActionCode(generated.code)
        #expect(try await silent.store.account(id: hal.uid)?.isEmailVerified == true)
        #expect(
            await authErrorCode { _ = try await silent.service.administration.emailActionLink(.passwordReset, email: "nobody@example.com") }
                == .userNotFound)
    }

    @Test("an owner's sign-in link takes back an account someone made with the address and a password never proven; a proven one keeps its password")
    func signInLinkReclaimsAnUnprovenPassword() async throws {
        let (fixture, outbox) = try Self.fixture()
        let settings = ActionCodeSettings(continueURL: "https://app.example.com/finish", handlesCodeInApp: true)
        // The squatter's account exists when the link is sent, or is made while it travels.
        for (email, before) in [("vic@example.com", true), ("val@example.com", false)] {
            var squatter: User?
            if before { squatter = try await fixture.service.createUser(withEmail: email, password: "squatter's password") }
            try await fixture.service.sendSignInLink(toEmail: email, actionCodeSettings: settings)
            if !before { squatter = try await fixture.service.createUser(withEmail: email, password: "squatter's password") }
            let owner = try await fixture.service.signIn(withEmail: email, link: try outbox.lastCode())
            let taken = try #require(squatter)
            #expect(owner.user.uid == taken.uid && owner.user.isEmailVerified && !owner.isNewUser, "\(email)")
            #expect(try await fixture.store.account(id: taken.uid)?.passwordHash == nil, "\(email): the unproven password is gone")
            #expect(
                await authErrorCode { _ = try await fixture.service.signIn(withEmail: email, password: "squatter's password") } == .invalidCredential,
                "\(email)")
            #expect(await authErrorCode { _ = try await taken.multiFactor.session() } == .userTokenExpired, "\(email): the squatter's session ended")
        }

        let kept = try await fixture.service.createUser(withEmail: "wes@example.com", password: "wes's own password")
        _ = try await fixture.service.administration.updateAccount(id: kept.uid, isEmailVerified: true)
        try await fixture.service.sendSignInLink(toEmail: "wes@example.com", actionCodeSettings: settings)
        _ = try await fixture.service.signIn(withEmail: "wes@example.com", link: try outbox.lastCode())
        #expect(try await fixture.service.signIn(withEmail: "wes@example.com", password: "wes's own password").uid == kept.uid)
    }

    @Test("bad email-action settings stop the service with a message that says which")
    func settings() throws {
        for (settings, says) in [
            (EmailActionSettings(actionURL: "/__/auth/action"), "actionURL must be an absolute http or https URL"),
            (EmailActionSettings(codeLifetime: 10), "codeLifetime must be at least 60 seconds"),
            (EmailActionSettings(sendsPerAddress: 0), "sendsPerAddress must be at least 1"),
        ] {
            let error = #expect(throws: MultiFactorConfigurationError.self) {
                _ = try MultiFactorService(configuration: MultiFactorConfiguration(emailActions: settings), store: InMemoryAuthStore())
            }
            #expect(error?.description.contains(says) == true, "\(String(describing: error))")
        }
    }

    @Test("a template from a file's text fills the message; text that is no template is refused saying why")
    func templates() async throws {
        let template = try EmailTemplate(
            parsing: "Subject: {app}: a new password for {email}\r\n\r\nHi,\r\n\r\nChoose one here: {link}\r\n\r\n-- {app}\r\n")
        #expect(template.subject == "{app}: a new password for {email}")
        #expect(template.body == "Hi,\n\nChoose one here: {link}\n\n-- {app}")
        let outbox = Outbox()
        let configuration = MultiFactorConfiguration(
            passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap),
            emailActions: EmailActionSettings(appName: "Example", templates: [.passwordReset: template]))
        let fixture = try Fixture(configuration, emailSender: outbox)
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "old password")
        try await fixture.service.sendPasswordReset(withEmail: "ada@example.com")
        let message = try #require(outbox.last)
        #expect(message.subject == "Example: a new password for ada@example.com")
        #expect(message.body == "Hi,\n\nChoose one here: \(message.link)\n\n-- Example")

        for (text, says) in [
            ("Hi,\n\n{link}", "the first line must be the subject"),
            ("Subject:  \n\n{link}", "the subject is empty"),
            ("Subject: Reset\n{link}", "an empty line must follow the subject"),
            ("Subject: Reset\n\nNo link here.", "the body must hold {link}"),
        ] {
            let error = #expect(throws: EmailTemplate.ParsingError.self) { try EmailTemplate(parsing: text) }
            #expect(error?.description.hasPrefix(says) == true, "\(text.debugDescription): \(String(describing: error))")
        }
    }
}
