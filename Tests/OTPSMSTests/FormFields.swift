/// A form body (`application/x-www-form-urlencoded`) decoded the way a gateway decodes it, written
/// apart from the sender's encoder so that the two check each other.
struct FormFields: Equatable, CustomStringConvertible {
    let pairs: [(name: String, value: String)]

    init(_ body: String) {
        pairs = body.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    init(_ pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    static func == (lhs: FormFields, rhs: FormFields) -> Bool {
        lhs.pairs.map(\.name) == rhs.pairs.map(\.name) && lhs.pairs.map(\.value) == rhs.pairs.map(\.value)
    }

    var description: String { pairs.map { "\($0.name)=\($0.value.debugDescription)" }.joined(separator: ", ") }

    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = iterator.next().flatMap { UInt8(String(UnicodeScalar($0)), radix: 16) } ?? 0
                let low = iterator.next().flatMap { UInt8(String(UnicodeScalar($0)), radix: 16) } ?? 0
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
