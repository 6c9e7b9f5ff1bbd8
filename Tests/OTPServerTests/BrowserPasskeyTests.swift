import Foundation
import OTPAuthentication
import OTPTestUtilities
import Synchronization
import Testing

/// A passkey registered and used in a real browser: Debian's Chromium, headless, driven by
/// Selenium with the DevTools protocol's virtual authenticator (Tests/WebAuthnClients/
/// browser_passkeys.py), against the routes served live on loopback. The page and the API share
/// the page's origin, which the relying party is configured with.
@Suite struct BrowserPasskeyTests {
    static let selenium = "/opt/otpkit-python/selenium-4.51.0"

    @Test func chromiumRegistersAPasskeyAndSignsInWithItAndTheServerRefusesWhatItShould() async throws {
        let python = try ExternalTool.debianPython3.path()
        let answer = Mutex("")
        let run = try await ProcessRunner.converse(
            python, [Fixture.url("Tests/WebAuthnClients/browser_passkeys.py").path], environment: ["PYTHONPATH": Self.selenium]
        ) { session in
            let started = try await session.waitForOutput(containing: "PAGE PORT ")
            let port = try #require(started.split(separator: "\n").first { $0.hasPrefix("PAGE PORT ") }?.split(separator: " ").last)
            var configuration = InProcessServer.configuration
            configuration.passkeys = PasskeySettings(relyingPartyID: "localhost", origins: ["http://localhost:\(port)"])
            try await InProcessServer.with(configuration: configuration, live: true) { server in
                try await session.write("\(server.port)\n")
                let output = try await session.waitForOutput(containing: "\"clone\"", timeout: .seconds(120))
                let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") })
                answer.withLock { $0 = String(line) }
            }
        }
        try #require(run.status == 0, "browser_passkeys.py failed (is \(Self.selenium) installed? bash .ci/install python): \(run.stderr)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(answer.withLock { $0 }.utf8)) as? [String: Any])

        func step(_ name: String) -> (stage: String?, status: Int?, body: [String: Any], error: String?) {
            let step = results[name] as? [String: Any] ?? [:]
            let body = step["body"] as? [String: Any] ?? [:]
            let message = (body["error"] as? [String: Any])?["message"] as? String
            return (step["stage"] as? String, step["status"] as? Int, body, message ?? step["error"] as? String)
        }
        let uid = try #require(step("signUp").body["localId"] as? String)
        #expect(step("register").status == 200, "\(results["register"] ?? "")")
        #expect(step("register").body["localId"] as? String == uid)
        // The authenticator holds the credential already (excludeCredentials): the browser refuses.
        #expect(step("registerAgain").stage == "browser" && step("registerAgain").error == "InvalidStateError", "\(results["registerAgain"] ?? "")")
        let info = (((step("lookup").body["users"] as? [[String: Any]])?.first)?["passkeyInfo"] as? [[String: Any]]) ?? []
        #expect(info.map { $0["credentialId"] as? String } == (results["authenticatorCredentialIds"] as? [String]) ?? [], "\(info)")
        #expect(info.first?["name"] as? String == "Chromium")

        for name in ["signIn", "signInAgain"] {
            #expect(step(name).status == 200, "\(results[name] ?? "")")
            #expect(step(name).body["localId"] as? String == uid)
        }
        for (name, reason) in [
            ("withoutUserVerification", "flag UV"), ("withoutUserPresence", "flag UP"), ("bogusSignature", "signature"), ("clone", "cloned"),
        ] {
            #expect(step(name).status == 400, "\(name): \(results[name] ?? "")")
            #expect(
                step(name).error?.hasPrefix("INVALID_AUTHENTICATOR_RESPONSE") == true && step(name).error?.contains(reason) == true,
                "\(name): \(step(name).error ?? "")")
        }
        #expect(results["counterBeforeClone"] as? Int ?? 0 >= 2, "the authenticator counts its signatures")
    }
}
