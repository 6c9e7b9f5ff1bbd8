/// Why a `Decodable` value could not be read, for a message: where and what, never the decoder's
/// debug description, which can quote a value of the input, and a value may be a secret. The
/// importers (an export file) and otpkit-server (a request body) say it the same way.
package enum DecodingErrorReason {
    /// `'services[2].otp.digits' is not a whole number`; `the top level` for the document itself,
    /// and `malformed` when it is not JSON at all. `abbreviate` shortens a long field path.
    package static func reason(for error: DecodingError, malformed: String, abbreviate: (String) -> String = { "'\($0)'" }) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            "\(place(context.codingPath, abbreviate)) is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            "\(place(context.codingPath, abbreviate)) is null, expected \(typeName(type))"
        case .keyNotFound(let key, let context):
            "\(place(context.codingPath + [key], abbreviate)) is missing"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? malformed : "\(place(context.codingPath, abbreviate)) is invalid"
        @unknown default:
            malformed
        }
    }

    private static func place(_ path: [any CodingKey], _ abbreviate: (String) -> String) -> String {
        guard !path.isEmpty else { return "the top level" }
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return abbreviate(result)
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is UInt64.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "the expected kind of value"
        }
    }
}
