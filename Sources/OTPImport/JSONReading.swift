import Foundation
import OTPCore

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
        DecodingErrorReason.reason(for: error, malformed: "the file is not valid JSON") { "'\(ImportError.abbreviated($0))'" }
    }
}
