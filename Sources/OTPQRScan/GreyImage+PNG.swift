internal import CPNG

extension GreyImage {
    /// Decodes a PNG image of any colour type and bit depth to grey with libpng's simplified API,
    /// which converts colour, palettes, 16-bit samples and gamma itself.
    init(png bytes: UnsafeRawBufferPointer) throws(QRScanError) {
        try Self.checkChunkLengths(bytes)
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

    /// Refuses a PNG whose chunks claim more bytes than the file has, before libpng sees it.
    ///
    /// Written here rather than left to libpng: its readers of text and profile chunks allocate
    /// (and clear) the length a chunk declares before reading it, so a 1 KiB file declaring a
    /// 1.8 GB `iTXt` took gigabytes and seconds (found by `Tests/Fuzz` FuzzQRImage), and the
    /// simplified API this module uses has no hook for libpng's chunk size limit. Only the chunk
    /// frame (length, type, data, CRC) is walked; libpng still reads and checks everything in it.
    static func checkChunkLengths(_ bytes: UnsafeRawBufferPointer) throws(QRScanError) {
        var offset = 8  // The signature, which libpng checks.
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let isEnd = bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8)
            guard length <= bytes.count - offset - 12 else {
                throw .unreadableImage(format: .png, reason: "a chunk claims \(length) bytes, more than the file has left")
            }
            if isEnd { return }
            offset += 12 + length
        }
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
