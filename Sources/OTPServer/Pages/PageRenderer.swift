internal import Foundation
internal import HTTPTypes
internal import Hummingbird
internal import Mustache

/// The pages' templates and message strings, in the binary (SwiftPM's `embedInCode`), and the
/// answer a page goes out in: its HTML with the headers every page carries.
struct PageRenderer: Sendable {
    /// The message strings of each language, as the templates read them (`{{t.signIn}}`), by
    /// language tag. One file a language (`Pages/Messages/en.json`), so that a translation is one
    /// file more and its line in ``translations``; a string it lacks is the English one.
    let catalogs: [String: [String: any Sendable]]
    private let library: MustacheLibrary

    /// The language of a request that names none the pages have.
    static let defaultLanguage = "en"

    /// Every language's messages, English first.
    static let translations: [(language: String, messages: [UInt8])] = [
        ("en", PackageResources.en_json), ("pl", PackageResources.pl_json),
    ]

    /// The languages the pages are written in, English first.
    static var languages: [String] { translations.map(\.language) }

    init() throws {
        var library = MustacheLibrary()
        for (name, bytes) in Self.templates {
            try library.register(String(decoding: bytes, as: UTF8.self), named: name)
        }
        self.library = library
        var catalogs: [String: [String: any Sendable]] = [:]
        for (language, bytes) in Self.translations {
            guard let messages = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: any Sendable] else {
                throw PageRendererError(description: "the messages of \(language) are not one JSON object")
            }
            catalogs[language] = catalogs[Self.defaultLanguage].map { Self.merging(messages, over: $0) } ?? messages
        }
        self.catalogs = catalogs
    }

    /// The messages of the request's language (``PageLanguage/current``).
    var messages: [String: any Sendable] {
        catalogs[PageLanguage.current] ?? catalogs[Self.defaultLanguage] ?? [:]
    }

    /// `translation` over `english`, groups (`kinds`, `events`) merged key by key.
    private static func merging(_ translation: [String: any Sendable], over english: [String: any Sendable]) -> [String: any Sendable] {
        english.merging(translation) { base, translated in
            guard let group = base as? [String: any Sendable], let translatedGroup = translated as? [String: any Sendable] else { return translated }
            return group.merging(translatedGroup) { _, new in new }
        }
    }

    static let templates: [(String, [UInt8])] = [
        ("layout", PackageResources.layout_mustache), ("sign-in", PackageResources.sign_in_mustache),
        ("sign-up", PackageResources.sign_up_mustache), ("second-factor", PackageResources.second_factor_mustache),
        ("security", PackageResources.security_mustache), ("events", PackageResources.events_mustache),
        ("enroll-totp", PackageResources.enroll_totp_mustache), ("recovery-codes", PackageResources.recovery_codes_mustache),
        ("console-users", PackageResources.console_users_mustache), ("console-user", PackageResources.console_user_mustache),
        ("console-audit", PackageResources.console_audit_mustache), ("message", PackageResources.message_mustache),
        ("reset-password", PackageResources.reset_password_mustache), ("enroll-phone", PackageResources.enroll_phone_mustache),
    ]

    /// A message string by its key; the key itself when missing, so that a forgotten string
    /// shows rather than breaks the page.
    func message(_ key: String) -> String {
        messages[key] as? String ?? key
    }

    /// A message string with its placeholders (`{provider}`) replaced by `values`: a translation
    /// puts each where its language wants it.
    func message(_ key: String, _ values: [String: String]) -> String {
        values.reduce(message(key)) { text, value in text.replacingOccurrences(of: "{\(value.key)}", with: value.value) }
    }

    /// A message string of a group (`kinds`, `events`, `actors`) by its key, which may hold dots.
    func message(_ group: String, _ key: String) -> String {
        (messages[group] as? [String: Any])?[key] as? String ?? key
    }

    /// `template` rendered with `values` (and the messages as `t`), as a page: `status`, and
    /// headers that keep it out of caches and frames and allow only the server's own script,
    /// style and forms.
    func page(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        var context = values
        context["t"] = messages
        let html = library.render(context, withTemplate: template) ?? ""
        var response = Self.response(status: status, contentType: "text/html; charset=utf-8", body: ByteBuffer(string: html))
        response.headers[.contentLanguage] = messages["language"] as? String ?? Self.defaultLanguage
        return response
    }

    /// Every page's headers: a strict Content-Security-Policy (nothing inline, nothing from
    /// elsewhere, forms posting only here, no framing), the same refusal of framing for older
    /// browsers, no sniffing, no referrer, no caching.
    static func response(status: HTTPResponse.Status, contentType: String, body: ByteBuffer, cache: Bool = false) -> Response {
        var headers: HTTPFields = [
            .contentType: contentType,
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            .cacheControl: cache ? "public, max-age=3600" : "no-store",
        ]
        for (name, value) in [("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Opener-Policy", "same-origin")] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

struct PageRendererError: Error, CustomStringConvertible {
    let description: String
}
