/// The answers of the small GET endpoints the SDKs probe before a flow (`IDENTITY-TOOLKIT.md` C.13).
extension Wire {
    /// `GET /v1/projects` (iOS `getProjectConfig`): the project and the domains that may host
    /// its sign-in pages, which the JS SDK checks a page's origin against.
    struct ProjectConfig: Encodable {
        var projectId: String
        var authorizedDomains: [String]
    }

    /// `GET /v1/recaptchaParams` (iOS `getRecaptchaParam`). The keys are left out, not `null`,
    /// when there is no reCAPTCHA: the SDK then reports a missing site key instead of loading
    /// Google's widget with a key that is not one.
    struct RecaptchaParams: Encodable {
        var kind = "identitytoolkit#GetRecaptchaParamResponse"
        var recaptchaSiteKey: String?
        var recaptchaStoken: String?
    }
}
