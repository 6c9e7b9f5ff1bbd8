import OTPCore
import OTPTestUtilities
import OTPURI
import Testing

@Suite("Formatting otpauth:// URIs")
struct FormattingTests {
    @Test("models format to the expected URI and parse back", arguments: try URIFixtures.load().formatted)
    func formatted(_ fixture: URIFixtures.Formatted) throws {
        let model = try fixture.model.build()
        #expect(model.string == fixture.uri)
        #expect(try OTPAuthURI(parsing: fixture.uri, mode: .strict) == model)
        #expect(try OTPAuthURI(parsing: fixture.uri, mode: .lenient) == model)
    }

    @Test("Firebase's generateQRCodeURL, byte for byte", arguments: try URIFixtures.load().firebase)
    func firebase(_ fixture: URIFixtures.Firebase) {
        let url = OTPAuthURI.firebaseQRCodeURL(
            sharedSecretKey: fixture.key,
            accountName: fixture.account,
            issuer: fixture.issuer,
            hashingAlgorithm: fixture.algorithm,
            codeLength: fixture.codeLength
        )
        #expect(Array(url.utf8) == Array(fixture.url.utf8))
    }

    @Test("the Firebase documentation example")
    func firebaseDocumentationExample() {
        let url = OTPAuthURI.firebaseQRCodeURL(
            sharedSecretKey: "key123", accountName: "user@myawesomeapp", issuer: "myawesomeapp",
            hashingAlgorithm: "SHA1", codeLength: 6)
        #expect(url == "otpauth://totp/myawesomeapp:user@myawesomeapp?secret=key123&issuer=myawesomeapp&algorithm=SHA1&digits=6")
    }

    @Test("a Firebase URL with a real secret parses strictly to the same key")
    func firebaseParses() throws {
        let secret = try OTPSecret.random(for: .sha1)
        let url = OTPAuthURI.firebaseQRCodeURL(
            sharedSecretKey: secret.base32, accountName: "user@example.com", issuer: "Example App",
            hashingAlgorithm: "SHA1", codeLength: 6)
        let parsed = try OTPAuthURI(parsing: url, mode: .strict)
        #expect(parsed.secret == secret)
        #expect(parsed.issuer == "Example App")
        #expect(parsed.accountName == "user@example.com")
        #expect(parsed.period == 30)
    }
}
