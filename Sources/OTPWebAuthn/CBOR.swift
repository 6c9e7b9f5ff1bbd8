import CCBOR

/// One decoded CBOR item (RFC 8949), as much of CBOR as WebAuthn's structures use: attestation
/// objects, COSE keys and extension maps. libcbor decodes (Debian's libcbor, never a decoder of our
/// own); this type is its result in Swift, with WebAuthn's stricter rules applied: no indefinite
/// lengths, no duplicate map keys, text that is UTF-8, a bounded depth.
enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// The negative integer −1 − `n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Entries in their encoded order.
    case map([(key: CBOR, value: CBOR)])
    case bool(Bool)
    case null
    /// Tags, floats, `undefined` and other simple values: kept only as "something", which no
    /// WebAuthn field read here may be.
    case other

    /// Deeper than any COSE key or attestation statement; extensions nest a little.
    static let maximumDepth = 16

    /// Decodes the one item at the start of `bytes`; returns it and how many bytes it took.
    ///
    /// - Throws: `CBOR.Malformed` for bytes that are not well-formed CBOR, declare sizes their
    ///   data cannot hold, use indefinite lengths, repeat a map key, or nest too deep.
    static func decodePrefix(_ bytes: [UInt8]) throws(Malformed) -> (item: CBOR, length: Int) {
        guard !bytes.isEmpty else { throw Malformed("is empty") }
        guard otpkit_cbor_is_plausible(bytes, bytes.count) else {
            throw Malformed("is not well-formed CBOR of definite lengths whose sizes fit its length")
        }
        var result = cbor_load_result()
        guard let item = bytes.withUnsafeBufferPointer({ cbor_load($0.baseAddress, $0.count, &result) }) else {
            throw Malformed("is not well-formed CBOR")
        }
        defer {
            var reference: UnsafeMutablePointer<cbor_item_t>? = item
            cbor_decref(&reference)
        }
        return (try convert(item, depth: 0), result.read)
    }

    /// Decodes `bytes` as exactly one item.
    static func decode(_ bytes: [UInt8]) throws(Malformed) -> CBOR {
        let (item, length) = try decodePrefix(bytes)
        guard length == bytes.count else { throw Malformed("has \(bytes.count - length) bytes after its one item") }
        return item
    }

    private static func convert(_ item: UnsafeMutablePointer<cbor_item_t>, depth: Int) throws(Malformed) -> CBOR {
        guard depth <= maximumDepth else { throw Malformed("nests deeper than \(maximumDepth) levels") }
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT:
            return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            guard let handle = cbor_bytestring_handle(item) else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: handle, count: cbor_bytestring_length(item))))
        case CBOR_TYPE_STRING:
            let bytes = cbor_string_handle(item).map { Array(UnsafeBufferPointer(start: $0, count: cbor_string_length(item))) } ?? []
            guard let text = String(validating: bytes, as: UTF8.self) else { throw Malformed("has text that is not UTF-8") }
            return .text(text)
        case CBOR_TYPE_ARRAY:
            var elements: [CBOR] = []
            let handle = cbor_array_handle(item)
            for index in 0..<cbor_array_size(item) {
                guard let element = handle?[index] else { throw Malformed("has an array with a missing element") }
                elements.append(try convert(element, depth: depth + 1))
            }
            return .array(elements)
        case CBOR_TYPE_MAP:
            var entries: [(key: CBOR, value: CBOR)] = []
            let handle = cbor_map_handle(item)
            for index in 0..<cbor_map_size(item) {
                guard let pair = handle?[index], let key = pair.key, let value = pair.value else {
                    throw Malformed("has a map with a missing entry")
                }
                let entry = (key: try convert(key, depth: depth + 1), value: try convert(value, depth: depth + 1))
                // RFC 8949 section 5.6: a map with a repeated key is not valid; WebAuthn's are CTAP2's canonical form.
                guard !entries.contains(where: { $0.key == entry.key }) else { throw Malformed("repeats a map key") }
                entries.append(entry)
            }
            return .map(entries)
        case CBOR_TYPE_FLOAT_CTRL:
            // libcbor 0.8's cbor_is_bool and cbor_is_null read any such item as a simple value and
            // assert (abort) on a float, so only a simple value is asked (FuzzWebAuthn found it).
            guard cbor_float_ctrl_is_ctrl(item) else { return .other }
            switch cbor_ctrl_value(item) {
            case UInt8(CBOR_CTRL_FALSE.rawValue): return .bool(false)
            case UInt8(CBOR_CTRL_TRUE.rawValue): return .bool(true)
            case UInt8(CBOR_CTRL_NULL.rawValue): return .null
            default: return .other
            }
        default:
            return .other
        }
    }

    static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null), (.other, .other): true
        default: false
        }
    }

    /// What a decode refused, as a phrase about the bytes ("is not well-formed CBOR").
    struct Malformed: Error, Sendable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

extension CBOR {
    /// The value under the integer key `key` (COSE keys' labels), when this is a map.
    subscript(label key: Int64) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        let wanted: CBOR = key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))
        return entries.first { $0.key == wanted }?.value
    }

    /// The value under the text key `key` (attestation objects' and statements' fields).
    subscript(key: String) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }

    /// The integer, when it is one that fits in an `Int64`.
    var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
}
