import Foundation
import OTPAuthentication
import Testing

/// Email-and-password accounts through the service: Firebase's createUser and signIn(withEmail:).
@Suite("Email and password accounts")
struct PasswordAccountTests {
    static func configuration(protection: Bool = true, parameters: PasswordHashParameters = PasswordHasherTests.cheap) -> MultiFactorConfiguration {
        MultiFactorConfiguration(passwords: PasswordSettings(hashParameters: parameters, emailEnumerationProtection: protection))
    }

    @Test("createUser signs the new account in; signIn(withEmail:) finds it by any letter case of the address")
    func createAndSignIn() async throws {
        let fixture = try Fixture(Self.configuration())
        let created = try await fixture.service.createUser(withEmail: " Ada@Example.COM ", password: "correct horse")
        #expect(created.email == "ada@example.com")
        #expect(created.isEmailVerified == false)
        let signedIn = try await fixture.service.signIn(withEmail: "ADA@example.com", password: "correct horse")
        #expect(signedIn.uid == created.uid)
        let account = try #require(try await fixture.store.account(id: created.uid))
        #expect(account.passwordHash?.hasPrefix("$scrypt$ln=10,r=8,p=1$") == true)
        #expect(account.passwordHash?.contains("correct horse") == false)
    }

    @Test("malformed addresses, short passwords and a taken address are refused with Firebase's codes")
    func refusals() async throws {
        let fixture = try Fixture(Self.configuration())
        for bad in ["", "ada", "ada@", "@example.com", "ada@example", "a da@example.com", "ada@@example.com", "ada@example..com"] {
            #expect(
                await authErrorCode { _ = try await fixture.service.createUser(withEmail: bad, password: "long enough") } == .invalidEmail, "\(bad)")
        }
        #expect(await authErrorCode { _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "12345") } == .weakPassword)
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "123456")
        #expect(
            await authErrorCode { _ = try await fixture.service.createUser(withEmail: "ADA@example.com", password: "other password") }
                == .emailAlreadyInUse)
    }

    @Test("with enumeration protection, a wrong password and an unknown address are the same error; without, they differ")
    func enumerationProtection() async throws {
        let protected = try Fixture(Self.configuration())
        _ = try await protected.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        var messages: [String] = []
        for (email, password) in [("ada@example.com", "wrong horse"), ("nobody@example.com", "correct horse")] {
            do {
                _ = try await protected.service.signIn(withEmail: email, password: password)
                Issue.record("signed in with \(email)")
            } catch {
                #expect(error.code == .invalidCredential)
                messages.append(error.message)
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1])

        let open = try Fixture(Self.configuration(protection: false))
        _ = try await open.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        #expect(await authErrorCode { _ = try await open.service.signIn(withEmail: "ada@example.com", password: "wrong horse") } == .wrongPassword)
        #expect(await authErrorCode { _ = try await open.service.signIn(withEmail: "nobody@example.com", password: "x") } == .userNotFound)
    }

    @Test("an account with a TOTP factor gets secondFactorRequired from its password, and the resolver finishes the sign-in")
    func secondFactor() async throws {
        let fixture = try Fixture(Self.configuration())
        // Enrolling needs a verified address, which only the host can vouch for so far: the
        // account is stored verified, as a host that verified it would.
        let hash = try PasswordHasher(parameters: PasswordHasherTests.cheap).hash("correct horse")
        let record = AccountRecord(id: "ada-uid", email: "ada@example.com", isEmailVerified: true, createdAt: Fixture.start, passwordHash: hash)
        #expect(try await fixture.store.insertAccount(record) == .inserted)
        let user = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
        #expect(user.uid == "ada-uid" && user.isEmailVerified)
        let (secret, info) = try await fixture.enroll(user)
        fixture.nextStep()
        let error = await #expect(throws: AuthError.self) {
            _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
        }
        #expect(error?.code == .secondFactorRequired)
        let resolver = try #require(error?.resolver)
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))
        #expect(result.user.uid == user.uid)
    }

    @Test("wrong passwords lock the account for the lockout; the right one works again after it")
    func lockout() async throws {
        let fixture = try Fixture(Self.configuration())
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        for _ in 0..<fixture.service.configuration.maximumConsecutiveFailures {
            #expect(
                await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "wrong") } == .invalidCredential)
        }
        #expect(
            await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse") } == .tooManyRequests)
        fixture.clock.advance(by: fixture.service.configuration.lockoutDuration + 1)
        _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
    }

    @Test("failures older than failureMemory are forgotten by the purge; newer ones still count towards the lock")
    func failuresForgotten() async throws {
        let fixture = try Fixture(Self.configuration())
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        let limit = fixture.service.configuration.maximumConsecutiveFailures
        func wrong() async -> AuthErrorCode? {
            await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "wrong") }
        }
        for _ in 1..<limit { #expect(await wrong() == .invalidCredential) }
        fixture.clock.advance(by: fixture.service.configuration.failureMemory - 1)
        try await fixture.service.purgeExpired()
        #expect(await wrong() == .invalidCredential, "the last failure before the lock, the others remembered")
        #expect(await wrong() == .tooManyRequests)

        fixture.clock.advance(by: fixture.service.configuration.lockoutDuration)
        for _ in 1..<limit { #expect(await wrong() == .invalidCredential) }
        fixture.clock.advance(by: fixture.service.configuration.failureMemory + 1)
        try await fixture.service.purgeExpired()
        for _ in 1..<limit { #expect(await wrong() == .invalidCredential, "counting again from zero after the purge") }
        #expect(await wrong() == .invalidCredential)
        #expect(await wrong() == .tooManyRequests)
    }

    @Test("an unknown address answers and locks exactly as a known one, so neither tells which addresses have accounts")
    func unknownAddressLocksAlike() async throws {
        let fixture = try Fixture(Self.configuration())
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        var answers: [String: [AuthErrorCode?]] = [:]
        for address in ["ada@example.com", "nobody@example.com"] {
            for _ in 0...fixture.service.configuration.maximumConsecutiveFailures {
                answers[address, default: []].append(
                    await authErrorCode { _ = try await fixture.service.signIn(withEmail: address, password: "wrong") })
            }
        }
        #expect(answers["ada@example.com"] == answers["nobody@example.com"])
        #expect(answers["nobody@example.com"]?.last == .tooManyRequests)
        #expect(answers["nobody@example.com"]?.first == .invalidCredential)
    }

    @Test("a hash made at older parameters is replaced at the current ones on the next successful sign-in")
    func rehashOnSignIn() async throws {
        let store = InMemoryAuthStore()
        let old = try MultiFactorService(configuration: Self.configuration(), store: store, clock: ManualAuthClock(Fixture.start))
        let user = try await old.createUser(withEmail: "ada@example.com", password: "correct horse")
        let raised = try MultiFactorService(
            configuration: Self.configuration(parameters: try PasswordHashParameters(logN: 11, r: 8, p: 1)), store: store,
            clock: ManualAuthClock(Fixture.start + 60))
        _ = try await raised.signIn(withEmail: "ada@example.com", password: "correct horse")
        let account = try #require(try await store.account(id: user.uid))
        #expect(account.passwordHash?.hasPrefix("$scrypt$ln=11,r=8,p=1$") == true)
        #expect(account.lastSignInAt == Fixture.start + 60)
        _ = try await raised.signIn(withEmail: "ada@example.com", password: "correct horse")
    }

    @Test("concurrent createUser calls with one address: exactly one succeeds")
    func concurrentCreate() async throws {
        let fixture = try Fixture(Self.configuration())
        let outcomes = await withTaskGroup(of: AuthErrorCode?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    do {
                        _ = try await fixture.service.createUser(withEmail: "race@example.com", password: "password \(index)")
                        return nil
                    } catch let error as AuthError {
                        return error.code
                    } catch {
                        return .internalError
                    }
                }
            }
            return await group.reduce(into: [AuthErrorCode?]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.filter { $0 == AuthErrorCode.emailAlreadyInUse }.count == 19)
    }

    @Test("signInAnonymously creates a new account each time, with no email, and it cannot enroll a second factor")
    func anonymous() async throws {
        let fixture = try Fixture(Self.configuration())
        let first = try await fixture.service.signInAnonymously()
        let second = try await fixture.service.signInAnonymously()
        #expect(first.uid != second.uid)
        #expect(first.providerID == "anonymous" && first.email == nil)
        let account = try #require(try await fixture.store.account(id: first.uid))
        #expect(account.email == nil && account.passwordHash == nil && account.createdAt == Fixture.start)
        let session = try await first.multiFactor.session()
        let refused = await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) }
        #expect(refused == .unsupportedFirstFactor)
    }
}
