internal import Hummingbird

extension IdentityToolkitRoutes {
    /// The emulator's values, which say what they are to anyone who reads them. Its clients switch
    /// reCAPTCHA off, but the JS SDK's test verifier still asks for a non-empty site key.
    static let emulatorRecaptchaSiteKey = "Fake-key__Do-not-send-this-to-Recaptcha_"
    static let emulatorRecaptchaToken =
        "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha"

    /// `GET /v1/projects` and `GET /v1/recaptchaParams`, and their iOS v3 names `getProjectConfig`
    /// and `getRecaptchaParam`: client calls behind the API key, with no body.
    func addProjectRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        func get(_ paths: [String], _ answer: @escaping @Sendable () -> any Encodable) {
            for path in paths {
                router.get(RouterPath(path)) { request, _ in
                    await routes.respond {
                        () async throws(IdentityToolkitError) -> any Encodable in
                        try routes.checkAPIKey(request)
                        return answer()
                    }
                }
            }
        }
        get([Self.identityToolkit + "/projects", Self.relyingParty + "/getProjectConfig"]) {
            Wire.ProjectConfig(projectId: routes.configuration.projectID, authorizedDomains: routes.configuration.authorizedDomains)
        }
        get([Self.identityToolkit + "/recaptchaParams", Self.relyingParty + "/getRecaptchaParam"]) {
            // No reCAPTCHA is checked by this server; only under the emulator do clients expect keys anyway.
            routes.configuration.isEmulator
                ? Wire.RecaptchaParams(recaptchaSiteKey: Self.emulatorRecaptchaSiteKey, recaptchaStoken: Self.emulatorRecaptchaToken)
                : Wire.RecaptchaParams()
        }
    }
}
