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
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<size {
                // Draw the module row once, then copy it to the other pixel rows it covers.
                let first = (row + margin) * scale * width
                for column in 0..<size where self[row, column] {
                    let start = first + (column + margin) * scale
                    buffer[start..<(start + scale)].update(repeating: 0)
                }
                let source = UnsafeBufferPointer(rebasing: buffer[first..<(first + width)])
                for copy in 1..<scale {
                    let start = first + copy * width
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + width)]).update(fromContentsOf: source)
                }
            }
        }

        var image = png_image()
        image.version = CPNG_image_version()
        image.width = UInt32(width)
        image.height = UInt32(width)
        image.format = CPNG_format_gray()
        // Two-tone images compress well even at zlib's fast setting, which is several times quicker.
        image.flags = CPNG_image_flag_fast()
        defer { png_image_free(&image) }

        let capacity = Int(CPNG_image_png_size_max(&image))
        let output = try [UInt8](unsafeUninitializedCapacity: capacity) { destination, initializedCount throws(QRCodeError) in
            var byteCount = png_alloc_size_t(capacity)
            let written = pixels.withUnsafeBytes { buffer in
                png_image_write_to_memory(&image, destination.baseAddress, &byteCount, 0, buffer.baseAddress, Int32(width), nil)
            }
            initializedCount = 0
            guard written != 0 else { throw .pngFailure(Self.message(of: image)) }
            initializedCount = Int(byteCount)
        }
        // Give back the worst-case capacity: a QR code's PNG is a few kilobytes.
        return Array(output)
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
