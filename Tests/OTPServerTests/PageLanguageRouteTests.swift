import Foundation
import HTTPTypes
import OTPServer
import Testing

/// The pages in the language the browser asks for: `Accept-Language` with its weights, ranges by
/// their first subtag, exclusions and wildcards; English for anything else; every translation
/// complete, with the placeholders of the English strings.
@Suite("Pages: languages")
struct PageLanguageRouteTests {
    typealias Browser = PageSecurityRouteTests.Browser

    static let messages = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/OTPServer/Pages/Messages")

    @Test(arguments: [
        ("pl-PL,pl;q=0.9,en;q=0.8", "pl"), ("de-DE, en;q=0.5", "en"), ("en;q=0.5, pl", "pl"), ("pl;q=0, *", "en"), ("*", "en"),
        ("PL", "pl"), ("fr, de", "en"), ("pl;q=2", "en"), ("", "en"), ("en, pl", "en"), ("en;q=0.8, pl;q=0.8", "en"),
    ])
    func theBrowsersLanguage(_ header: String, _ expected: String) async throws {
        try await InProcessServer.with { server in
            let browser = Browser(server)
            let page = try await browser.request("/account/sign-in", headers: header.isEmpty ? [] : [("Accept-Language", header)])
            #expect(page.status == 200)
            #expect(page.body.contains(#"<html lang="\#(expected)""#), "\(page.body.prefix(200))")
            #expect(page.headers[.contentLanguage] == expected)
            #expect(page.body.contains(expected == "pl" ? "Zaloguj się" : "Sign in"))
        }
    }

    @Test("a Polish browser reads the errors and a provider's button in Polish; the REST API answers as it always does")
    func errorsAndPlaceholders() async throws {
        try await InProcessServer.withIdentityProvider { server, _ in
            let browser = Browser(server)
            let polish = [("Accept-Language", "pl")]
            let page = try await browser.request("/account/sign-in", headers: polish)
            #expect(page.body.contains(">Kontynuuj przez Google</a>"), "the provider's name where Polish puts it")
            let wrong = try await browser.post(
                "/account/sign-in", ["csrf": try #require(page.csrf), "email": "nobody@example.com", "password": "wrong one"], headers: polish)
            #expect(wrong.status == 400 && wrong.body.contains("Adres e-mail lub hasło jest nieprawidłowe."), "\(wrong.body)")
            let rest = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k", #"{"email":"nobody@example.com","password":"x"}"#,
                headers: polish)
            #expect(rest.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(rest.body)")
        }
    }

    @Test("every translation in the messages folder is one the pages serve")
    func everyTranslationIsServed() async throws {
        let languages = try FileManager.default.contentsOfDirectory(atPath: Self.messages.path()).filter { $0.hasSuffix(".json") }.map {
            String($0.dropLast(5))
        }
        try await InProcessServer.with { server in
            for language in languages {
                let page = try await Browser(server).request("/account/sign-up", headers: [("Accept-Language", language)])
                #expect(page.headers[.contentLanguage] == language, "\(language).json is not in PageRenderer.translations")
            }
        }
    }

    /// Every string of every translation, groups included, is English's, with the same placeholders.
    @Test func everyTranslationIsComplete() throws {
        func strings(_ object: [String: Any], prefix: String = "") -> [String: String] {
            var all: [String: String] = [:]
            for (key, value) in object {
                if let text = value as? String { all[prefix + key] = text }
                if let group = value as? [String: Any] { all.merge(strings(group, prefix: prefix + key + ".")) { first, _ in first } }
            }
            return all
        }
        func placeholders(_ text: String) -> Set<String> { Set(text.matches(of: #/\{[a-zA-Z]+\}/#).map { String($0.0) }) }
        func read(_ name: String) throws -> [String: String] {
            strings(try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.messages.appending(path: name))) as? [String: Any]))
        }
        let english = try read("en.json")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.messages.path()).filter { $0.hasSuffix(".json") && $0 != "en.json" }
        #expect(!files.isEmpty)
        for file in files {
            let translation = try read(file)
            #expect(Set(translation.keys) == Set(english.keys), "\(file): \(Set(translation.keys).symmetricDifference(english.keys).sorted())")
            for (key, text) in english {
                #expect(placeholders(translation[key] ?? "") == placeholders(text), "\(file) \(key)")
            }
            #expect(translation["language"] == String(file.dropLast(5)), "\(file) names its language")
        }
    }
}
