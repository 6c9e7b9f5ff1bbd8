/// An image format ``QRScanner`` decodes, recognized by the file's first bytes, never by its name.
public enum ImageFormat: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// PNG, any colour type and bit depth, decoded by libpng.
    case png
    /// JPEG, baseline or progressive, decoded by libjpeg-turbo.
    case jpeg

    /// The format's usual name: `PNG` or `JPEG`.
    public var description: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        }
    }

    /// The format whose signature `bytes` start with, or `nil`.
    init?(signatureOf bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The name of a format that people save QR codes in but that is not decoded here, so that
    /// the error can say what the file is rather than only what it is not.
    static func unsupportedFormatName(of bytes: UnsafeRawBufferPointer) -> String? {
        func ascii(_ text: String, at offset: Int = 0) -> Bool {
            bytes.count >= offset + text.utf8.count && bytes[offset..<(offset + text.utf8.count)].elementsEqual(text.utf8)
        }
        if ascii("GIF87a") || ascii("GIF89a") { return "GIF" }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return "WebP" }
        if ascii("BM") { return "BMP" }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if ascii("ftypavif", at: 4) { return "AVIF" }
        if ascii("ftypheic", at: 4) || ascii("ftypheix", at: 4) || ascii("ftypmif1", at: 4) { return "HEIF" }
        if ascii("%PDF") { return "PDF" }
        return nil
    }
}
