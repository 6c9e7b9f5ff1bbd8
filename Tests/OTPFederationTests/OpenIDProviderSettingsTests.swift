import OTPFederation
import Testing

/// Configurations that cannot be right are refused when the settings are made.
@Suite struct OpenIDProviderSettingsTests {
    private func settings(
        issuers: [String] = ["https://issuer.example"], audiences: [String] = ["app"], keySource: JWKSSource = .url("https://issuer.example/jwks"),
        algorithms: [String] = ["RS256"], clockSkew: Duration = .seconds(60), maximumTokenAge: Duration? = nil, timeout: Duration = .seconds(10)
    ) throws(OpenIDProviderSettingsError) -> OpenIDProviderSettings {
        try OpenIDProviderSettings(
            providerID: "oidc.example", issuers: issuers, audiences: audiences, keySource: keySource, allowedAlgorithms: algorithms,
            clockSkew: clockSkew, maximumTokenAge: maximumTokenAge, keyFetchTimeout: timeout)
    }

    @Test func defaults() throws {
        let value = try settings()
        #expect(value.allowedAlgorithms == ["RS256"])
        #expect(value.clockSkew == .seconds(60))
        #expect(value.maximumTokenAge == nil)
        #expect(value.keyFetchTimeout == .seconds(10))
    }

    @Test func hmacAlgorithmsAreRefused() {
        for algorithm in ["HS256", "HS384", "HS512", "hs256"] {
            #expect(throws: OpenIDProviderSettingsError.symmetricAlgorithm(algorithm)) { try settings(algorithms: ["RS256", algorithm]) }
        }
        #expect(OpenIDProviderSettingsError.symmetricAlgorithm("HS256").description.contains("key confusion"))
    }

    @Test func algorithmNoneIsRefused() {
        #expect(throws: OpenIDProviderSettingsError.unsignedAlgorithm) { try settings(algorithms: ["none"]) }
        #expect(throws: OpenIDProviderSettingsError.unsignedAlgorithm) { try settings(algorithms: ["RS256", "None"]) }
    }

    @Test func unknownAndMissingAlgorithmsAreRefused() {
        #expect(throws: OpenIDProviderSettingsError.unsupportedAlgorithm("RSA-OAEP")) { try settings(algorithms: ["RSA-OAEP"]) }
        #expect(throws: OpenIDProviderSettingsError.noAlgorithms) { try settings(algorithms: []) }
        #expect((try? settings(algorithms: ["RS256", "PS256", "ES256", "EdDSA"])) != nil)
    }

    @Test func clockSkewIsBounded() throws {
        #expect(throws: OpenIDProviderSettingsError.clockSkewOutOfRange(seconds: 301)) { try settings(clockSkew: .seconds(301)) }
        #expect(throws: OpenIDProviderSettingsError.clockSkewOutOfRange(seconds: -1)) { try settings(clockSkew: .seconds(-1)) }
        #expect(try settings(clockSkew: .seconds(300)).clockSkew == .seconds(300))
        #expect(try settings(clockSkew: .zero).clockSkew == .zero)
    }

    @Test func maximumAgeAndTimeoutAreChecked() {
        #expect(throws: OpenIDProviderSettingsError.invalidMaximumTokenAge(seconds: 0)) { try settings(maximumTokenAge: .zero) }
        #expect(throws: OpenIDProviderSettingsError.invalidKeyFetchTimeout(seconds: 0)) { try settings(timeout: .zero) }
        #expect(throws: OpenIDProviderSettingsError.invalidKeyFetchTimeout(seconds: 61)) { try settings(timeout: .seconds(61)) }
    }

    @Test func issuersAudiencesAndProviderIDMustBeGiven() {
        #expect(throws: OpenIDProviderSettingsError.noIssuers) { try settings(issuers: []) }
        #expect(throws: OpenIDProviderSettingsError.noIssuers) { try settings(issuers: [""]) }
        #expect(throws: OpenIDProviderSettingsError.noAudiences) { try settings(audiences: []) }
        #expect(throws: OpenIDProviderSettingsError.noAudiences) { try settings(audiences: ["app", ""]) }
        #expect(throws: OpenIDProviderSettingsError.emptyProviderID) {
            try OpenIDProviderSettings(providerID: "", issuers: ["i"], audiences: ["a"], keySource: .file("/k"))
        }
        #expect(throws: OpenIDProviderSettingsError.emptyKeyFilePath) { try settings(keySource: .file("")) }
    }

    @Test func keySetURLMustBeHTTPSUnlessLoopback() throws {
        for url in ["http://127.0.0.1:8080/jwks", "http://localhost/jwks", "http://[::1]:9000/jwks", "https://issuer.example/certs"] {
            #expect((try? settings(keySource: .url(url))) != nil, "\(url)")
        }
        #expect(throws: OpenIDProviderSettingsError.insecureKeySetURL("http://issuer.example/jwks")) {
            try settings(keySource: .url("http://user:password@issuer.example/jwks?key=sekrit#frag"))
        }
        #expect(throws: OpenIDProviderSettingsError.insecureKeySetURL("http://127.0.0.2/jwks")) {
            try settings(keySource: .url("http://127.0.0.2/jwks"))
        }
        for url in ["ftp://issuer.example/jwks", "/jwks", "issuer.example/jwks", ""] {
            #expect(throws: OpenIDProviderSettingsError.self, "\(url)") { try settings(keySource: .url(url)) }
        }
        let error = OpenIDProviderSettingsError.insecureKeySetURL("http://issuer.example/jwks")
        #expect(error.description.contains("use https"))
    }
}
