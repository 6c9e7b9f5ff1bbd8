internal import Foundation

/// How an email action's link hands back to the app (Firebase's `ActionCodeSettings`): the URL
/// the action page continues to. The app-specific fields (bundle ids, dynamic link domains)
/// Firebase takes are accepted by the server and have no effect here.
public struct ActionCodeSettings: Sendable, Hashable {
    /// Where the user continues after the action (`continueUrl`); an absolute URL.
    public var continueURL: String?
    /// Whether the app opens the link itself (required for sign-in links, as Firebase requires).
    public var handlesCodeInApp: Bool

    /// Creates settings.
    public init(continueURL: String? = nil, handlesCodeInApp: Bool = false) {
        self.continueURL = continueURL
        self.handlesCodeInApp = handlesCodeInApp
    }

    func validate() throws(AuthError) {
        if let continueURL {
            guard let url = URLComponents(string: continueURL), url.scheme != nil, url.host?.isEmpty == false else {
                throw AuthError(.invalidContinueURI, "the continue URL must be an absolute URL, such as https://example.com/done")
            }
        }
    }
}
