internal import Foundation

/// A request's body, read within the size limit, decoded on demand into an endpoint's request
/// type. An empty body reads as `{}`.
struct JSONBody: Sendable {
    let bytes: [UInt8]

    /// The body as `T`; malformed JSON, a value of the wrong type or anything but an object is
    /// Identity Toolkit's `INVALID_ARGUMENT`, naming the field but never its value (it may be a password).
    func decode<T: Decodable>(_ type: T.Type) throws(IdentityToolkitError) -> T {
        let data = bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ? Data("{}".utf8) : Data(bytes)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw .invalidJSON(Self.describe(error))
        } catch {
            throw .invalidJSON("The body could not be read.")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            context.codingPath.isEmpty
                ? "The body must be a JSON object."
                : "Invalid value at '\(path(context.codingPath))': expected \(name(of: type))."
        case .keyNotFound(let key, let context):
            "Missing field '\(path(context.codingPath + [key]))'."
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "The body is not well-formed JSON." : "Invalid value at '\(path(context.codingPath))'."
        @unknown default:
            "The body could not be read."
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Double.Type: "a number"
        default: type is any Collection.Type ? "a list" : "an object"
        }
    }
}
