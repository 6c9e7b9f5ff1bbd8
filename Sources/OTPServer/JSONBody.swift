internal import Foundation
internal import OTPCore

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

    /// `'password' is not a string.`: the field, never its value (it may be a password).
    static func describe(_ error: DecodingError) -> String {
        DecodingErrorReason.reason(for: error, malformed: "the body is not well-formed JSON") + "."
    }
}
