extension QRCode {
    /// The symbol in UTF-8 half blocks (`▀`, `▄`, `█`), two module rows per text line, with a
    /// quiet zone of ``quietZone`` modules; every line ends with a line feed.
    ///
    /// - Parameter inverted: `false` draws dark modules in the terminal's foreground colour, for
    ///   dark text on a light background. `true` draws the light modules and the quiet zone
    ///   instead, for light text on a dark background, so the code still reads dark-on-light.
    public func utf8String(inverted: Bool = false) -> String {
        let zone = Self.quietZone
        let extent = size + 2 * zone
        let lineCount = (extent + 1) / 2
        var output: [UInt8] = []
        output.reserveCapacity(lineCount * (extent * 3 + 1))
        for line in 0..<lineCount {
            let top = line * 2 - zone
            let bottom = top + 1
            let bottomInside = line * 2 + 1 < extent
            for column in -zone..<(size + zone) {
                var upper = self[top, column]
                var lower = self[bottom, column]
                if inverted {
                    upper.toggle()
                    lower = bottomInside ? !lower : false
                }
                switch (upper, lower) {
                case (true, true): output.append(contentsOf: [0xE2, 0x96, 0x88])  // █
                case (true, false): output.append(contentsOf: [0xE2, 0x96, 0x80])  // ▀
                case (false, true): output.append(contentsOf: [0xE2, 0x96, 0x84])  // ▄
                case (false, false): output.append(UInt8(ascii: " "))
                }
            }
            output.append(UInt8(ascii: "\n"))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The symbol drawn with ANSI background colours (black and white), one module row per line
    /// and two spaces per module, so it looks right on any terminal background. Each line resets
    /// the colours before its line feed.
    public func ansiString() -> String {
        let zone = Self.quietZone
        let dark: [UInt8] = Array("\u{1B}[40m".utf8)
        let light: [UInt8] = Array("\u{1B}[47m".utf8)
        let reset: [UInt8] = Array("\u{1B}[0m\n".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((size + 2 * zone) * ((size + 2 * zone) * 4 + 16))
        for row in -zone..<(size + zone) {
            var current: Bool? = nil
            for column in -zone..<(size + zone) {
                let module = self[row, column]
                if module != current {
                    output.append(contentsOf: module ? dark : light)
                    current = module
                }
                output.append(UInt8(ascii: " "))
                output.append(UInt8(ascii: " "))
            }
            output.append(contentsOf: reset)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The symbol in plain ASCII: `##` for a dark module and two spaces for a light one, one module
    /// row per line, with a quiet zone of ``quietZone`` modules.
    public func asciiString() -> String {
        let zone = Self.quietZone
        let extent = size + 2 * zone
        var output: [UInt8] = []
        output.reserveCapacity(extent * (extent * 2 + 1))
        for row in -zone..<(size + zone) {
            for column in -zone..<(size + zone) {
                let byte = self[row, column] ? UInt8(ascii: "#") : UInt8(ascii: " ")
                output.append(byte)
                output.append(byte)
            }
            output.append(UInt8(ascii: "\n"))
        }
        return String(decoding: output, as: UTF8.self)
    }
}
