/// An error thrown when a QR code cannot be encoded or rendered.
public enum QRCodeError: Error, Hashable, Sendable {
    /// There is nothing to encode.
    case emptyInput
    /// The input has more bytes than the largest symbol (version 40) holds at this level.
    case inputTooLong(byteCount: Int, maximum: Int, errorCorrection: QRCode.ErrorCorrection)
    /// libqrencode failed for another reason (errno, e.g. ENOMEM).
    case encodingFailed(errno: Int32)
    /// A rendering option is outside its allowed range.
    case invalidRenderingOption(name: String, value: Int, allowed: ClosedRange<Int>)
    /// libpng could not write the image.
    case pngFailure(String)
}

extension QRCodeError: CustomStringConvertible {
    /// A one-line message saying what was wrong, fit to show a user.
    public var description: String {
        switch self {
        case .emptyInput:
            "nothing to encode: the text is empty"
        case .inputTooLong(let byteCount, let maximum, let level):
            "text too long for a QR code: \(byteCount) bytes, at most \(maximum) at error correction \(level)"
                + (level == .low ? "" : " (a lower level holds more)")
        case .encodingFailed(let code):
            "libqrencode failed (errno \(code))"
        case .invalidRenderingOption(let name, let value, let allowed):
            "invalid \(name) \(value): use \(allowed.lowerBound) to \(allowed.upperBound)"
        case .pngFailure(let message):
            "libpng failed: \(message)"
        }
    }
}
