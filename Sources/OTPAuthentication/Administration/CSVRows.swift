/// RFC 4180 rows: fields separated by commas, quoted when they hold a comma, a quote (doubled) or a
/// line break. Written here because none of the libraries this package may use reads CSV
/// (Foundation on Linux has no reader).
enum CSVRows {
    /// The rows of `bytes`, each a list of fields; a last line break ends the last row.
    /// - Throws: `INVALID_ARGUMENT` for a quote left open or text after a closing quote.
    static func parse(_ bytes: [UInt8]) throws(AdminRequestError) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var afterQuote = false
        var line = 1
        var quoteLine = 1
        var index = 0
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "\n"):
                endField()
                rows.append(row)
                row.removeAll()
                line += 1
            case UInt8(ascii: "\"") where field.allSatisfy({ $0 == UInt8(ascii: " ") }) && !afterQuote:
                field.removeAll()
                quoted = true
                quoteLine = line
            case UInt8(ascii: " ") where afterQuote:
                continue
            default:
                if afterQuote { throw .invalidArgument("line \(line): text after a closing quote; double a quote inside a quoted field") }
                field.append(byte)
            }
        }
        if quoted { throw .invalidArgument("line \(quoteLine): a quoted field is not closed") }
        if !field.isEmpty || !row.isEmpty || afterQuote {
            endField()
            rows.append(row)
        }
        return rows
    }
}
