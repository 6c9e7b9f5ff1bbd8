import Foundation
import Glibc
import OTPLoopbackHTTP
import OTPTestUtilities
import Testing

/// The account page and the admin console in a real browser (Tests/WebPages/browser_pages.py:
/// Debian's Chromium, headless, driven by Selenium), against `otpkit-server` itself on loopback,
/// on the port its passkey origin names. Screenshots of every page, at a desktop and a phone
/// width, go to `.build/page-screenshots/`.
@Suite struct BrowserPagesTests {
    /// A port no one listens on now: the kernel's choice for a socket bound to port 0, released.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func aPersonsJourneyThroughTheAccountPageAndTheConsole() async throws {
        let python = try ExternalTool.debianPython3.path()
        let shots = Fixture.url(".build/page-screenshots")
        try? FileManager.default.removeItem(at: shots)
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let port = try Self.freePort()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // An identity provider on another origin (127.0.0.1), where Carol is signed in already.
        let provider = try await TestIdentityProvider.start()
        provider.signIn(.init(subject: "carol-1", email: "carol@example.com", name: "Carol"))
        provider.setClientSecret("browser-test-secret")
        let secretFile = directory.file("provider-secret.txt")
        try "browser-test-secret\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        let commandLine = [
            "--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id", "demo-otpkit",
            "--port", String(port), "--emulator", "--console-admin", "ada@example.com", "--passkey-rp-id", "localhost",
            "--passkey-origin", "http://localhost:\(port)",
            "--identity-provider", "oidc.test=\(provider.audience),\(provider.issuer),\(provider.jwksURL)",
            "--account-page-provider", "oidc.test=\(provider.authorizationEndpoint),\(provider.tokenEndpoint),\(secretFile)",
        ]
        var output = ""
        do {
            try await ServerProcess.with(commandLine: commandLine, projectID: "demo-otpkit", in: directory) { _ in
                let run = try await ProcessRunner.run(
                    python, [Fixture.url("Tests/WebPages/browser_pages.py").path],
                    environment: ["PYTHONPATH": BrowserPasskeyTests.selenium, "BASE": "http://localhost:\(port)", "SCREENSHOTS": shots.path])
                try #require(run.status == 0, "browser_pages.py failed (bash .ci/install installs Chromium, pyotp and Selenium): \(run.stderr)")
                output = run.stdout
            }
        } catch {
            try? await provider.stop()
            throw error
        }
        try await provider.stop()
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") })
        let results = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        func value(_ name: String) -> String { "\(results[name] ?? "nothing")" }

        #expect(value("afterSignUp") == "/account")
        #expect(value("verificationNotice").contains("sent you an email"))
        #expect(value("verified") == "Your email address is verified.")
        // The QR code as zbarimg reads it carries the key the page shows as text.
        let key = value("key")
        #expect(key.count >= 32 && value("qrURI").hasPrefix("otpauth://totp/") && value("qrURI").contains("secret=\(key)"), "\(value("qrURI"))")
        #expect(value("enrolled").contains("authenticator app was added"))
        #expect((results["factorRows"] as? [String]) == ["Ada's phone"], "\(value("factorRows"))")
        #expect(value("renamed") == "The second factor was renamed." && value("factorNameAfterRename") == "Ada's Pixel")
        #expect(results["recoveryCodes"] as? Int == 10)
        #expect(value("passkeyAdded") == "The passkey was added.", "\(value("passkeyAdded"))")
        #expect((results["passkeyNames"] as? [String])?.count == 1)
        #expect(value("afterSignOut") == "/account/sign-in")
        #expect(value("secondFactorPath") == "/account/second-factor")
        #expect(value("wrongCode").contains("wrong"))
        #expect(value("signedInWithTOTP") == "/account")
        #expect(value("signedInWithRecoveryCode") == "/account" && value("recoveryCodesLeft") == "9")
        #expect(value("signedInWithPasskey") == "/account")
        #expect(value("consoleWithoutSecondFactor").hasPrefix("Not allowed"), "a passkey sign-in completed no second factor")
        #expect(value("securityKeyAdded").contains("security key was added"), "\(value("securityKeyAdded"))")
        #expect(value("signedInWithSecurityKey") == "/account", "a passkey second factor, in the browser")
        #expect(results["bobFactorsBefore"] as? Int == 2 && results["bobFactorsAfter"] as? Int == 0)
        #expect(value("resetNotice").contains("second factors and recovery codes were removed"))
        let events = (results["bobEvents"] as? [[String]]) ?? []
        let reset = events.first { $0.count > 4 && $0[1] == "Second factor removed" }
        #expect(reset?[3] == "ada@example.com", "\(events)")
        #expect(reset?.last?.contains("lost phone <script>alert('xss')</script>") == true, "the reason shown as text: \(events)")
        #expect(results["escapedReason"] as? Bool == true && value("alerts") == "undefined", "the reason's script escaped, never run")
        // Carol, through the provider's origin and back: a new account, signed in, the flow's cookie spent.
        #expect(value("providerSignIn") == "/account" && value("providerEmail") == "carol@example.com", "\(value("providerSignIn"))")
        #expect(value("providerCookieAfter") == "None" && provider.server.requestCount(path: TestIdentityProvider.tokenPath) == 1)
        // A browser asking for Polish gets it, the provider's name inside the sentence.
        #expect(value("polishLanguage") == "pl" && value("polishHeading") == "Ustawienia bezpieczeństwa")
        #expect(value("polishProviderButton") == "Kontynuuj przez oidc.test")

        let pages = (results["pages"] as? [String: [String: Any]]) ?? [:]
        #expect(pages.count == 15, "\(pages.keys.sorted())")
        for (name, page) in pages {
            #expect(page["phoneOverflow"] as? Bool == false, "\(name) scrolls sideways on a phone")
            #expect(page["csp"] as? Int == 0, "\(name) has inline script or style")
            #expect(page["unlabelled"] as? Int == 0, "\(name) has a field without a label")
            for width in ["desktop", "phone"] {
                #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("\(name)-\(width).png").path))
            }
        }
    }
}
