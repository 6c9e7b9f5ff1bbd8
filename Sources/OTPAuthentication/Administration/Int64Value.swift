/// A whole number sent as a JSON number (firebase-admin's `validSince`, an import's times) or as a
/// string of digits (Google's JSON mapping of int64, which the emulator accepts too, and
/// firebase-tools' export files).
package struct Int64Value: Decodable, Sendable, Hashable {
    package var value: Int64

    package init(_ value: Int64) {
        self.value = value
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = number
        } else if let text = try? container.decode(String.self), let number = Int64(text) {
            value = number
        } else {
            throw DecodingError.typeMismatch(Int64.self, .init(codingPath: decoder.codingPath, debugDescription: "not a whole number"))
        }
    }
}
