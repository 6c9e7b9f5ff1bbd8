extension QRCode {
    /// The symbol as a standalone SVG document: a white background and one black path made of a
    /// rectangle per horizontal run of dark modules, drawn with `shape-rendering="crispEdges"`.
    ///
    /// The view box counts modules, so the image scales without blur; `width` and `height` are
    /// `moduleSize` pixels per module.
    /// - Parameters:
    ///   - moduleSize: pixels per module for the nominal size, 1 to 100.
    ///   - margin: light modules around the symbol, 0 to 100 (4 is the standard quiet zone).
    public func svgString(moduleSize: Int = 8, margin: Int = QRCode.quietZone) throws(QRCodeError) -> String {
        guard (1...100).contains(moduleSize) else {
            throw .invalidRenderingOption(name: "module size", value: moduleSize, allowed: 1...100)
        }
        guard (0...100).contains(margin) else {
            throw .invalidRenderingOption(name: "margin", value: margin, allowed: 0...100)
        }
        let extent = size + 2 * margin
        let pixels = extent * moduleSize
        var svg: [UInt8] = []
        svg.reserveCapacity(400 + size * size * 4)
        svg.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
        svg.append(contentsOf: "\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(pixels)\" height=\"\(pixels)\" ".utf8)
        svg.append(contentsOf: "viewBox=\"0 0 \(extent) \(extent)\" shape-rendering=\"crispEdges\">\n".utf8)
        svg.append(contentsOf: "<rect width=\"\(extent)\" height=\"\(extent)\" fill=\"#ffffff\"/>\n".utf8)
        svg.append(contentsOf: ##"<path fill="#000000" d=""##.utf8)
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size && self[row, column] { column += 1 }
                let run = column - start
                // "Mx yhNv1h-Nz": one rectangle, one module high.
                svg.append(UInt8(ascii: "M"))
                Self.appendDecimal(start + margin, to: &svg)
                svg.append(UInt8(ascii: " "))
                Self.appendDecimal(row + margin, to: &svg)
                svg.append(UInt8(ascii: "h"))
                Self.appendDecimal(run, to: &svg)
                svg.append(contentsOf: "v1h-".utf8)
                Self.appendDecimal(run, to: &svg)
                svg.append(UInt8(ascii: "z"))
            }
        }
        svg.append(contentsOf: "\"/>\n</svg>\n".utf8)
        return String(decoding: svg, as: UTF8.self)
    }

    /// Appends a non-negative number without creating a String per number (an SVG has hundreds).
    private static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &output) }
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
