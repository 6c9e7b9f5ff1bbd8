internal import CPNG

extension GreyImage {
    /// Decodes a PNG image of any colour type and bit depth to grey with libpng's simplified API,
    /// which converts colour, palettes, 16-bit samples and gamma itself.
    init(png bytes: UnsafeRawBufferPointer) throws(QRScanError) {
        var image = png_image()
        image.version = CPNG_image_version()
        // libpng frees its state when a call fails or the read finishes; freeing again is a no-op,
        // so this covers the refusals of our own between the two calls.
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw .unreadableImage(format: .png, reason: Self.message(of: image))
        }
        let width = Int(image.width)
        let height = Int(image.height)
        let count = try Self.pixelCount(width: width, height: height, format: .png)
        image.format = CPNG_format_gray()
        // Transparent parts become white: QR codes saved with a transparent background are drawn
        // dark on light.
        var background = png_color(red: 0xFF, green: 0xFF, blue: 0xFF)
        var pixels = [UInt8](repeating: 0xFF, count: count)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, &background, buffer.baseAddress, Int32(width), nil)
        }
        guard finished != 0 else { throw .unreadableImage(format: .png, reason: Self.message(of: image)) }
        self.init(width: width, height: height, pixels: pixels, damage: nil)
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
