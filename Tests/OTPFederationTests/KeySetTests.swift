import Foundation
import OTPAuthentication
import OTPFederation
import OTPLoopbackHTTP
import OTPTestUtilities
import Testing

/// Where the keys come from and how long they are kept: the HTTP cache, rotation, the key file,
/// and a provider whose key set cannot be had.
@Suite struct KeySetTests {
    @Test func manyVerificationsOneFetch() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now)
            for _ in 0..<20 { _ = try await verifier.verify(idToken: token, nonce: nil) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 { group.addTask { _ = try await verifier.verify(idToken: token, nonce: nil) } }
                try await group.waitForAll()
            }
            #expect(provider.jwksRequestCount == 1)
        }
    }

    @Test func concurrentFirstVerificationsShareOneFetch() async throws {
        try await withVerifier { provider, clock, verifier in
            let keySet = try provider.jwksJSON()
            // Slow enough that every verification arrives while the first fetch is under way.
            provider.setKeySetOverride(.init(status: .ok, body: keySet, delay: .milliseconds(300)))
            let token = try await provider.idToken(issuedAt: clock.now)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 { group.addTask { _ = try await verifier.verify(idToken: token, nonce: nil) } }
                try await group.waitForAll()
            }
            #expect(provider.jwksRequestCount == 1)
        }
    }

    @Test func keysAreKeptForMaxAgeThenFetchedAgain() async throws {
        try await withVerifier(cacheControl: "public, max-age=120, must-revalidate") { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            clock.advance(by: 119)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 1)
            clock.advance(by: 2)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 2)
        }
    }

    @Test func withoutCacheControlKeysAreKeptAnHour() async throws {
        try await withVerifier(cacheControl: nil, clockSkew: .zero) { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now, expiresIn: 86_400)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            clock.advance(by: 3599)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 1)
            clock.advance(by: 2)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 2)
        }
    }

    @Test func maxAgeIsBounded() async throws {
        // max-age=0 still keeps the keys a minute; a week is cut to a day.
        try await withVerifier(cacheControl: "no-cache, max-age=0") { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now, expiresIn: 30 * 86_400)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            clock.advance(by: 59)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 1)
            clock.advance(by: 2)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 2)

            provider.setCacheControl("max-age=604800")
            clock.advance(by: 61)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 3)
            clock.advance(by: 86_399)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 3)
            clock.advance(by: 2)
            _ = try await verifier.verify(idToken: token, nonce: nil)
            #expect(provider.jwksRequestCount == 4)
        }
    }

    @Test func rotatedKeyVerifiesAfterOneFetch() async throws {
        try await withVerifier { provider, clock, verifier in
            let before = try await provider.idToken(issuedAt: clock.now)
            _ = try await verifier.verify(idToken: before, nonce: nil)
            let old = provider.currentKey.kid
            let new = try provider.rotate().kid
            #expect(old != new)
            let after = try await provider.idToken(issuedAt: clock.now)
            #expect(try await verifier.verify(idToken: after, nonce: nil).subject == "test-user-1")
            #expect(provider.jwksRequestCount == 2)
            // Both keys are now held: no more fetches for either.
            _ = try await verifier.verify(idToken: before, nonce: nil)
            _ = try await verifier.verify(idToken: after, nonce: nil)
            #expect(provider.jwksRequestCount == 2)

            // A key the provider withdrew is refused once the keys are fetched again.
            try provider.rotate(keepingPrevious: false)
            clock.advance(by: 3601)
            await expectRejected(before, by: verifier, mentioning: ["does not publish", old])
        }
    }

    @Test func keyFileIsReadAgainWhenItChanges() async throws {
        let provider = try await TestIdentityProvider.start()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("jwks.json")
        try provider.jwksJSON().write(toFile: path, atomically: true, encoding: .utf8)
        let clock = TestClock()
        let settings = try OpenIDProviderSettings(
            providerID: "oidc.file", issuers: [provider.issuer], audiences: [provider.audience], keySource: .file(path))
        let verifier = OpenIDTokenVerifier(settings: settings, clock: clock.source)

        let first = try await provider.idToken(issuedAt: clock.now)
        #expect(try await verifier.verify(idToken: first, nonce: nil).subject == "test-user-1")

        try provider.rotate()
        let second = try await provider.idToken(issuedAt: clock.now)
        await expectRejected(second, by: verifier, mentioning: ["does not publish", "key file"])
        // Written by rename, as deployments replace files: a new inode.
        try provider.jwksJSON().write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try await verifier.verify(idToken: second, nonce: nil).subject == "test-user-1")
        #expect(try await verifier.verify(idToken: first, nonce: nil).subject == "test-user-1")

        try FileManager.default.removeItem(atPath: path)
        do {
            _ = try await verifier.verify(idToken: first, nonce: nil)
            Issue.record("verified without a key file")
        } catch {
            guard case .keysUnavailable(let reason) = error else { throw error }
            #expect(reason.contains(path) && reason.contains("No such file"), "\(reason)")
        }
        #expect(provider.jwksRequestCount == 0)
        try await provider.stop()
    }

    @Test func serverErrorMakesKeysUnavailable() async throws {
        try await withVerifier(keySetQuery: "?access_token=sekrit-query-value") { provider, clock, verifier in
            provider.setKeySetOverride(.init(status: .internalServerError, body: #"{"error":"sekrit-body-value"}"#))
            let token = try await provider.idToken(issuedAt: clock.now)
            let reason = try await expectKeysUnavailable(token, by: verifier)
            #expect(reason.contains("HTTP 500"), "\(reason)")
            #expect(reason.contains("127.0.0.1:\(provider.server.port)/jwks"), "\(reason)")
            #expect(!reason.contains("sekrit") && !reason.contains("access_token"), "\(reason)")
            expectNoTokenText(of: token, in: reason)

            // Failures are repeated for a few seconds without asking again, then the keys come back.
            _ = try await expectKeysUnavailable(token, by: verifier)
            #expect(provider.jwksRequestCount == 1)
            provider.setKeySetOverride(nil)
            clock.advance(by: 6)
            #expect(try await verifier.verify(idToken: token, nonce: nil).subject == "test-user-1")
            #expect(provider.jwksRequestCount == 2)
        }
    }

    @Test func garbageKeySetMakesKeysUnavailable() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now)
            let cases: [(String, String)] = [
                ("<html>Service Unavailable</html>", "is not a JSON Web Key Set"),
                (#"{"keys":"none"}"#, "is not a JSON Web Key Set"),
                (#"{"keys":[]}"#, "holds no key usable with RS256"),
                (#"{"keys":[{"kty":"oct","kid":"k","k":"c2VjcmV0"},{"kty":"RSA","kid":"x"}]}"#, "holds no key usable with RS256"),
            ]
            for (body, expected) in cases {
                provider.setKeySetOverride(.init(status: .ok, body: body))
                clock.advance(by: 3601)
                let reason = try await expectKeysUnavailable(token, by: verifier)
                #expect(reason.contains(expected), "\(reason)")
            }
        }
    }

    @Test func unknownKeyTypesBesideUsableKeysAreSkipped() async throws {
        try await withVerifier { provider, clock, verifier in
            let keySet = try provider.jwksJSON()
            let extra = #"{"kty":"oct","kid":"hmac","k":"c2VjcmV0"},{"kty":"RSA","kid":"enc-key","use":"enc","n":"AQAB","e":"AQAB"},"#
            provider.setKeySetOverride(.init(status: .ok, body: keySet.replacingOccurrences(of: #"{"keys":["#, with: #"{"keys":["# + extra)))
            let token = try await provider.idToken(issuedAt: clock.now)
            #expect(try await verifier.verify(idToken: token, nonce: nil).subject == "test-user-1")
        }
    }

    @Test func slowKeySetServerTimesOut() async throws {
        try await withVerifier(keyFetchTimeout: .milliseconds(500)) { provider, clock, verifier in
            // The server would answer after two minutes; the bound is far from both numbers so a
            // busy machine cannot make the test fail while a missing timeout still does.
            provider.setKeySetOverride(.init(status: .ok, body: try provider.jwksJSON(), delay: .seconds(120)))
            let token = try await provider.idToken(issuedAt: clock.now)
            let started = ContinuousClock.now
            let reason = try await expectKeysUnavailable(token, by: verifier)
            #expect(reason.contains("0.5 s"), "\(reason)")
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test func unreachableKeySetServer() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        let settings = try OpenIDProviderSettings(
            providerID: "oidc.down", issuers: ["http://127.0.0.1:\(port)"], audiences: ["app"], keySource: .url("http://127.0.0.1:\(port)/jwks"),
            keyFetchTimeout: .seconds(60))
        let verifier = OpenIDTokenVerifier(settings: settings)
        let provider = try await TestIdentityProvider.start()
        let token = try await provider.idToken()
        let started = ContinuousClock.now
        let reason = try await expectKeysUnavailable(token, by: verifier)
        #expect(ContinuousClock.now - started < .seconds(30), "a refused connection is the answer, not retried until the timeout")
        #expect(reason.contains("could not be fetched") && reason.contains("Connection refused"), "\(reason)")
        try await provider.stop()
    }

    /// The reason of the `keysUnavailable` error `verifier` throws for `token`.
    private func expectKeysUnavailable(_ token: String, by verifier: OpenIDTokenVerifier) async throws -> String {
        do {
            _ = try await verifier.verify(idToken: token, nonce: nil)
        } catch {
            guard case .keysUnavailable(let reason) = error else {
                Issue.record("expected keysUnavailable, got \(error)")
                return ""
            }
            return reason
        }
        Issue.record("verified without keys")
        return ""
    }
}
