/// Decoded pixels, one byte each (0 black, 255 white), row after row with no padding: the `Y800`
/// layout zbar scans.
struct GreyImage {
    let width: Int
    let height: Int
    let pixels: [UInt8]
    /// What the decoder reported about an image it decoded anyway, such as a JPEG cut short.
    let damage: String?

    /// Checks `width` and `height` from an image's header against the limits and returns the pixel
    /// count, before anything of that size is allocated.
    static func pixelCount(width: Int, height: Int, format: ImageFormat) throws(QRScanError) -> Int {
        guard width > 0, height > 0 else {
            throw .unreadableImage(format: format, reason: "the header gives a size of \(width) × \(height) pixels")
        }
        guard width <= QRScanner.maximumSideLength, height <= QRScanner.maximumSideLength,
            width * height <= QRScanner.maximumPixelCount
        else { throw .imageTooLarge(width: width, height: height) }
        return width * height
    }
}
