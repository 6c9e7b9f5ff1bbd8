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
        var path = ""
        path.reserveCapacity(size * size * 2)
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
                path += "M\(start + margin) \(row + margin)h\(run)v1h-\(run)z"
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(extent) \(extent)" shape-rendering="crispEdges">
            <rect width="\(extent)" height="\(extent)" fill="#ffffff"/>
            <path fill="#000000" d="\(path)"/>
            </svg>

            """
    }
}
