import Foundation

/// Decoding an export's JSON with Foundation's decoder, its errors turned into ``ImportError``s.
enum JSONReading {
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, format: ImportFormat) throws(ImportError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ImportError {
            throw error
        } catch let error as DecodingError {
            throw .malformed(format, reason: reason(for: error))
        } catch {
            throw .malformed(format, reason: "the file is not valid JSON")
        }
    }

    /// Where and what, without the decoder's debug description: that can quote a value of the
    /// file, and a value may be a secret.
    static func reason(for error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            "\(place(context.codingPath)) is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            "\(place(context.codingPath)) is null, expected \(typeName(type))"
        case .keyNotFound(let key, let context):
            "\(place(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "the file is not valid JSON" : "\(place(context.codingPath)) is invalid"
        @unknown default:
            "the file is not valid JSON"
        }
    }

    /// `services[2].otp.digits`, or `the top level`.
    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return "'\(ImportError.abbreviated(result))'"
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
