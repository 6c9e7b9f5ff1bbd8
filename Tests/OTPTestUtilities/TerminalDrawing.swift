/// Reads the terminal drawings of a QR code back into modules (`true` for dark), so tests compare
/// what a person sees with the code's matrix. Each returns `nil` for text that is not such a
/// drawing.
public enum TerminalDrawing {
    /// The modules (true for dark) of an ASCII drawing: "##" or two spaces each, a row per line.
    public static func modules(ascii text: String) -> [[Bool]]? {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            let bytes = Array(line.utf8)
            guard bytes.count % 2 == 0 else { return nil }
            var row: [Bool] = []
            for index in stride(from: 0, to: bytes.count, by: 2) {
                switch (bytes[index], bytes[index + 1]) {
                case (UInt8(ascii: "#"), UInt8(ascii: "#")): row.append(true)
                case (UInt8(ascii: " "), UInt8(ascii: " ")): row.append(false)
                default: return nil
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// The modules of a half-block drawing: two rows per line; inverted, the blocks draw the light
    /// modules. The lower half of the last line lies outside an odd-sized picture and is dropped.
    public static func modules(halfBlocks text: String, inverted: Bool) -> [[Bool]]? {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            var top: [Bool] = []
            var bottom: [Bool] = []
            for character in line {
                let halves: (Bool, Bool)
                switch character {
                case "█": halves = (true, true)
                case "▀": halves = (true, false)
                case "▄": halves = (false, true)
                case " ": halves = (false, false)
                default: return nil
                }
                top.append(halves.0 != inverted)
                bottom.append(halves.1 != inverted)
            }
            rows += [top, bottom]
        }
        return Array(rows.dropLast())
    }

    /// The modules of an ANSI drawing: two spaces each on a black (dark) or white background.
    public static func modules(ansi text: String) -> [[Bool]]? {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            var row: [Bool] = []
            var dark: Bool? = nil
            var rest = Substring(line)
            while !rest.isEmpty {
                if rest.hasPrefix("\u{1B}[40m") {
                    dark = true
                    rest = rest.dropFirst(5)
                } else if rest.hasPrefix("\u{1B}[47m") {
                    dark = false
                    rest = rest.dropFirst(5)
                } else if rest.hasPrefix("\u{1B}[0m") {
                    dark = nil
                    rest = rest.dropFirst(4)
                } else if rest.hasPrefix("  "), let dark {
                    row.append(dark)
                    rest = rest.dropFirst(2)
                } else {
                    return nil
                }
            }
            guard dark == nil else { return nil }
            rows.append(row)
        }
        return rows
    }
}
