internal import Foundation

/// The settings of email actions (password resets, address verifications, sign-in links): where
/// their links lead, how long their codes live, how often one address may be sent one, and the
/// messages.
public struct EmailActionSettings: Sendable, Hashable {
    /// The page the links open, which reads their `mode` and `oobCode` and calls the REST API
    /// (Firebase's action handler is `https://PROJECT.firebaseapp.com/__/auth/action`; your app's
    /// own page works the same way). An absolute `http` or `https` URL.
    public var actionURL: String
    /// The Web API key the links carry, which Firebase's SDKs read from them; `nil` for none.
    public var apiKey: String?
    /// Seconds a code stays usable (default 3,600, as Firebase's password-reset links).
    public var codeLifetime: Int64
    /// Seconds the link that changes an address back (``EmailActionKind/recoverEmail``) stays
    /// usable (default 259,200, three days): its owner did not ask for the message, and may read
    /// it long after an hour.
    public var recoverEmailLifetime: Int64
    /// The seconds over which ``sendsPerAddress`` is allowed (default 3,600): a token bucket per
    /// address that holds the limit and drains one message each `sendWindow` divided by it.
    public var sendWindow: Int64
    /// Messages sent to one address per window (default 5); beyond, `tooManyRequests`.
    public var sendsPerAddress: Int
    /// The name `{app}` stands for in the messages.
    public var appName: String
    /// The messages, by kind; a kind not here gets ``EmailTemplate/standard(for:)``.
    public var templates: [EmailActionKind: EmailTemplate]

    /// Creates settings.
    public init(
        actionURL: String = "http://localhost/__/auth/action", apiKey: String? = nil, codeLifetime: Int64 = 3_600,
        recoverEmailLifetime: Int64 = 259_200, sendWindow: Int64 = 3_600, sendsPerAddress: Int = 5, appName: String = "OTPKit",
        templates: [EmailActionKind: EmailTemplate] = [:]
    ) {
        self.actionURL = actionURL
        self.apiKey = apiKey
        self.codeLifetime = codeLifetime
        self.recoverEmailLifetime = recoverEmailLifetime
        self.sendWindow = sendWindow
        self.sendsPerAddress = sendsPerAddress
        self.appName = appName
        self.templates = templates
    }

    func validate() throws(MultiFactorConfigurationError) {
        guard let url = URLComponents(string: actionURL), ["http", "https"].contains(url.scheme?.lowercased()), url.host?.isEmpty == false
        else {
            throw .invalidEmailActionSetting("actionURL must be an absolute http or https URL, such as https://example.com/__/auth/action")
        }
        guard codeLifetime >= 60 else { throw .invalidEmailActionSetting("codeLifetime must be at least 60 seconds") }
        guard recoverEmailLifetime >= 60 else { throw .invalidEmailActionSetting("recoverEmailLifetime must be at least 60 seconds") }
        guard sendWindow > 0 else { throw .invalidEmailActionSetting("sendWindow must be at least 1 second") }
        guard sendsPerAddress >= 1 else { throw .invalidEmailActionSetting("sendsPerAddress must be at least 1") }
    }

    /// How long a code of `kind` stays usable.
    func lifetime(of kind: EmailActionKind) -> Int64 {
        kind == .recoverEmail ? recoverEmailLifetime : codeLifetime
    }

    /// The link of an action of `kind` with `code`, and `continueURL` when given: the parameters
    /// Firebase's SDKs read (`mode`, `oobCode`, `apiKey`, `continueUrl`, `lang`), each value
    /// percent-encoded but for RFC 3986's unreserved characters, after the action URL's own query.
    func link(kind: EmailActionKind, code: String, continueURL: String?) -> String {
        var parameters = [("mode", kind.mode), ("oobCode", code)]
        if let apiKey { parameters.append(("apiKey", apiKey)) }
        if let continueURL { parameters.append(("continueUrl", continueURL)) }
        parameters.append(("lang", "en"))
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let query = parameters.map { name, value in name + "=" + (value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "") }
        return actionURL + (actionURL.contains("?") ? "&" : "?") + query.joined(separator: "&")
    }
}
