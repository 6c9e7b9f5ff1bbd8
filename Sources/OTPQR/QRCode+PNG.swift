internal import CPNG

extension QRCode {
    /// The symbol as an 8-bit greyscale PNG written by libpng: `scale` pixels per module and
    /// `margin` light modules around the symbol.
    /// - Parameters:
    ///   - scale: pixels per module, 1 to 100.
    ///   - margin: light modules on each side, 0 to 100 (4 is the standard quiet zone).
    /// - Throws: ``QRCodeError/invalidRenderingOption(name:value:allowed:)`` or
    ///   ``QRCodeError/pngFailure(_:)``.
    public func pngData(scale: Int = 8, margin: Int = QRCode.quietZone) throws(QRCodeError) -> [UInt8] {
        guard (1...100).contains(scale) else {
            throw .invalidRenderingOption(name: "scale", value: scale, allowed: 1...100)
        }
        guard (0...100).contains(margin) else {
            throw .invalidRenderingOption(name: "margin", value: margin, allowed: 0...100)
        }
        let width = (size + 2 * margin) * scale
        var pixels = [UInt8](repeating: 0xFF, count: width * width)
        for row in 0..<size {
            for column in 0..<size where self[row, column] {
                let x = (column + margin) * scale
                for y in ((row + margin) * scale)..<((row + margin + 1) * scale) {
                    let start = y * width + x
                    pixels.withUnsafeMutableBufferPointer { buffer in
                        buffer[start..<(start + scale)].update(repeating: 0)
                    }
                }
            }
        }

        var image = png_image()
        image.version = CPNG_image_version()
        image.width = UInt32(width)
        image.height = UInt32(width)
        image.format = CPNG_format_gray()
        defer { png_image_free(&image) }

        // The simplified API reports the size first, then writes; it never longjmps into Swift.
        var byteCount: png_alloc_size_t = 0
        let sized = pixels.withUnsafeBytes { buffer in
            png_image_write_to_memory(&image, nil, &byteCount, 0, buffer.baseAddress, Int32(width), nil)
        }
        guard sized != 0, byteCount > 0 else { throw .pngFailure(Self.message(of: image)) }
        var output = [UInt8](repeating: 0, count: Int(byteCount))
        let written = output.withUnsafeMutableBytes { destination in
            pixels.withUnsafeBytes { buffer in
                png_image_write_to_memory(&image, destination.baseAddress, &byteCount, 0, buffer.baseAddress, Int32(width), nil)
            }
        }
        guard written != 0 else { throw .pngFailure(Self.message(of: image)) }
        output.removeLast(output.count - Int(byteCount))
        return output
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
