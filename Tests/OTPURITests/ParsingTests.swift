import OTPCore
import OTPTestUtilities
import OTPURI
import Testing

@Suite("Parsing otpauth:// URIs")
struct ParsingTests {
    @Test("accepted URIs give the expected model", arguments: try URIFixtures.load().accepted)
    func accepted(_ fixture: URIFixtures.Accepted) throws {
        let expected = try fixture.expect.build()
        for mode in URIFixtures.modes(fixture.modes) {
            let parsed = try OTPAuthURI(parsing: fixture.uri, mode: mode)
            #expect(parsed == expected, "\(mode)")
            #expect(parsed.kind == expected.kind)
            #expect(parsed.issuer == expected.issuer, "\(mode)")
            #expect(parsed.accountName == expected.accountName, "\(mode)")
            #expect(parsed.secret.base32 == expected.secret.base32, "\(mode)")
            #expect(parsed.additionalParameters == expected.additionalParameters, "\(mode)")
        }
    }

    @Test("rejected URIs throw the named error", arguments: try URIFixtures.load().rejected)
    func rejected(_ fixture: URIFixtures.Rejected) {
        for mode in URIFixtures.modes(fixture.modes) {
            do {
                let parsed = try OTPAuthURI(parsing: fixture.uri, mode: mode)
                Issue.record("\(mode) parsing accepted \(fixture.uri) as \(parsed)")
            } catch {
                #expect(error.caseName == fixture.error, "\(mode): \(error)")
                #expect(error.description.contains(fixture.message), "\(mode): \(error.description)")
            }
        }
    }

    @Test("every strict-only rejection is accepted leniently or rejected for the same reason")
    func lenientCounterparts() throws {
        let strictOnly = try URIFixtures.load().rejected.filter { $0.modes == ["strict"] }
        try #require(!strictOnly.isEmpty, "no strict-only rejections in the fixtures: nothing to check")
        for fixture in strictOnly {
            do {
                _ = try OTPAuthURI(parsing: fixture.uri, mode: .lenient)
            } catch {
                Issue.record("\(fixture.name): lenient parsing rejected it: \(error)")
            }
        }
    }

    @Test("errors about a bad secret never contain the secret")
    func secretNotInErrors() {
        let secret = "JBSWY3DPEHPK3PXPJBSWY3D1EHPK3PXP"
        for mode in [OTPAuthURI.ParsingMode.strict, .lenient] {
            do {
                _ = try OTPAuthURI(parsing: "otpauth://totp/a?secret=\(secret)", mode: mode)
                Issue.record("accepted a bad secret")
            } catch {
                #expect(!error.description.contains("JBSWY3DP"))
                #expect(error == .invalidSecret(.invalidBase32Character("1", offset: 23)))
            }
        }
    }

    @Test("the model's initializer rejects bad values")
    func initializerValidation() throws {
        let secret = try OTPSecret(base32: "JBSWY3DPEHPK3PXP")
        #expect(throws: OTPURIError.invalidDigits("5")) { try OTPAuthURI(issuer: nil, accountName: "a", secret: secret, digits: 5) }
        #expect(throws: OTPURIError.invalidPeriod("0")) { try OTPAuthURI(issuer: nil, accountName: "a", secret: secret, period: 0) }
        #expect(throws: OTPURIError.missingCounter) { try OTPAuthURI(kind: .hotp, issuer: nil, accountName: "a", secret: secret) }
        #expect(throws: OTPURIError.reservedParameterName("Secret")) {
            try OTPAuthURI(issuer: nil, accountName: "a", secret: secret, additionalParameters: [.init(name: "Secret", value: "x")])
        }
        #expect(throws: OTPURIError.reservedParameterName("COUNTER")) {
            try OTPAuthURI(
                kind: .hotp, issuer: nil, accountName: "a", secret: secret, counter: 1, additionalParameters: [.init(name: "COUNTER", value: "x")])
        }
        _ = try OTPAuthURI(issuer: nil, accountName: "a", secret: secret, additionalParameters: [.init(name: "counter", value: "x")])
        let model = try OTPAuthURI(issuer: "", accountName: "a", secret: secret)
        #expect(model.issuer == nil)
        #expect(!model.description.contains(secret.base32))
    }
}
