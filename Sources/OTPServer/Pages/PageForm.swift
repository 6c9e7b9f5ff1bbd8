internal import Foundation
internal import Hummingbird

/// A submitted form's fields (`application/x-www-form-urlencoded`), or a page script's JSON
/// object, read within the server's body limit.
struct PageForm: Sendable {
    let fields: [String: String]
    /// The JSON object a page script sent, if the body was JSON.
    let json: [String: any Sendable]?
    let raw: [UInt8]

    subscript(_ name: String) -> String? { fields[name] }

    /// The longest name a form gives a factor or a passkey; the fields say it too (`maxlength`).
    static let maximumNameLength = 100

    /// A name field: its text cut to ``maximumNameLength`` characters.
    func name(_ field: String = "name") -> String? {
        text(field).map { String($0.prefix(Self.maximumNameLength)) }
    }

    /// A field with surrounding white space removed; `nil` when absent or empty.
    func text(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    static func read(_ request: Request, limit: Int) async -> PageForm? {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: limit) else { return nil }
        let bytes = Array(buffer.readableBytesView)
        let isJSON = request.headers[.contentType]?.lowercased().hasPrefix("application/json") ?? false
        if isJSON {
            let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: any Sendable]
            return PageForm(fields: [:], json: object ?? [:], raw: bytes)
        }
        var components = URLComponents()
        components.percentEncodedQuery = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] where fields[item.name] == nil {
            fields[item.name] = item.value ?? ""
        }
        return PageForm(fields: fields, json: nil, raw: bytes)
    }
}
