internal import OTPCore

/// An error thrown when an image cannot be read or holds no QR code.
///
/// No case carries bytes of a QR code's payload: an image that was read holds either codes, which
/// are returned, or none.
public enum QRScanError: Error, Hashable, Sendable {
    /// The image has no bytes.
    case emptyImage
    /// The bytes are neither a PNG nor a JPEG image. `detectedFormat` names the format they are
    /// in, such as `GIF` or `WebP`, when its signature is known.
    case unsupportedFormat(detectedFormat: String?)
    /// The image starts like a PNG or JPEG image but cannot be decoded: cut short, corrupt, or a
    /// variant the decoder refuses (a CMYK JPEG). `reason` is the decoder's message.
    case unreadableImage(format: ImageFormat, reason: String)
    /// The image is wider or taller than ``QRScanner/maximumSideLength`` pixels, or has more than
    /// ``QRScanner/maximumPixelCount`` pixels; it was refused from its header, before its pixels
    /// were allocated.
    case imageTooLarge(width: Int, height: Int)
    /// The image has more than ``QRScanner/maximumByteCount`` bytes. `byteCount` is its size, or
    /// for a file the bytes read before reading stopped.
    case fileTooLarge(byteCount: Int)
    /// The image was decoded but zbar found no QR code in it.
    case noQRCode
    /// The image file could not be opened or read; `reason` is the C library's message.
    case unreadableFile(path: String, reason: String)
    /// libjpeg-turbo or zbar could not start or run, as when memory runs out.
    case scannerFailure(String)
}

extension QRScanError: CustomStringConvertible {
    /// A one-line message saying what was wrong and how to put it right, fit to show a user.
    public var description: String {
        switch self {
        case .emptyImage:
            return "the image is empty (0 bytes): choose the image file again, or save the screenshot again"
        case .unsupportedFormat(let detectedFormat):
            let what = detectedFormat.map { "a \(quotedInMessage($0, maximumScalars: 16)) image" } ?? "not an image format read here"
            return "\(what) (supported: PNG, JPEG): save or convert the QR code as a PNG image"
        case .unreadableImage(let format, let reason):
            let decoder = format == .png ? "libpng" : "libjpeg-turbo"
            return "the \(format) image is corrupt or cut short (\(decoder): \(quotedInMessage(reason, maximumScalars: 120))): "
                + "export or save the image again"
        case .imageTooLarge(let width, let height):
            return "the image is \(width) × \(height) pixels, over the limit of \(QRScanner.maximumSideLength) pixels a side "
                + "and \(QRScanner.maximumPixelCount / (1 << 20)) megapixels: crop it to the QR code or scale it down"
        case .fileTooLarge(let byteCount):
            return "the image is at least \(byteCount) bytes, over the limit of \(QRScanner.maximumByteCount / (1 << 20)) MiB: "
                + "crop it to the QR code or save it as PNG"
        case .noQRCode:
            return "no QR code found in the image: show the whole code, sharp and with its light border, "
                + "or crop the image to the code"
        case .unreadableFile(let path, let reason):
            return "cannot read the image file '\(quotedInMessage(path, maximumScalars: 200))': \(reason); check the path and its permissions"
        case .scannerFailure(let reason):
            return "the QR scanner failed: \(quotedInMessage(reason, maximumScalars: 120)); try again with more free memory"
        }
    }
}
