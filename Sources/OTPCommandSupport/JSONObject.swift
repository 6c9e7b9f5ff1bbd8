/// A JSON object written with its keys in the order they were added.
///
/// Hand-written rather than `JSONEncoder`: the documented output has a fixed key order and
/// Foundation would cost start-up time in `totp code` and `totp verify`.
package struct JSONObject: Sendable {
    private var members: [String] = []

    /// An empty object.
    package init() {}

    /// Adds a string member, `null` for `nil`.
    package mutating func add(_ key: String, _ value: String?) {
        append(key, value.map(Self.quoted) ?? "null")
    }

    /// Adds a number member.
    package mutating func add(_ key: String, _ value: some BinaryInteger) {
        append(key, "\(value)")
    }

    /// Adds a number member, `null` for `nil`.
    package mutating func add(_ key: String, _ value: (some BinaryInteger)?) {
        append(key, value.map { "\($0)" } ?? "null")
    }

    /// Adds a `true` or `false` member.
    package mutating func add(_ key: String, _ value: Bool) {
        append(key, value ? "true" : "false")
    }

    /// Adds an array of strings.
    package mutating func add(_ key: String, _ values: [String]) {
        append(key, "[" + values.map(Self.quoted).joined(separator: ",") + "]")
    }

    /// Adds a member whose value is already JSON text, such as an array of objects.
    package mutating func add(_ key: String, json: String) {
        append(key, json)
    }

    private mutating func append(_ key: String, _ json: String) {
        members.append("\(Self.quoted(key)):\(json)")
    }

    /// The object on one line.
    package var text: String { "{" + members.joined(separator: ",") + "}" }

    /// `objects` as a JSON array on one line.
    package static func array(_ objects: [JSONObject]) -> String {
        "[" + objects.map(\.text).joined(separator: ",") + "]"
    }

    /// A JSON string literal (RFC 8259 escaping).
    package static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
