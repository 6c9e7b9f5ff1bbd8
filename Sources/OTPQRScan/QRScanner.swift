/// Reads the QR codes in a PNG or JPEG image: an authenticator's export shown as QR codes, or a
/// screenshot of a key URI's code.
///
/// The image is decoded to 8-bit grey pixels (PNG by libpng, JPEG by libjpeg-turbo; the format is
/// told by the first bytes, never by a file name) and scanned by zbar for QR codes only. Each code
/// comes back as the exact bytes it holds: zbar runs in binary mode, so it never guesses a
/// character set and re-encodes them. Light-on-dark codes are found too, and one image may hold
/// several codes.
///
/// Nothing here knows about one-time passwords: a code holding any text is returned, and deciding
/// whether it is an `otpauth://` or `otpauth-migration://` URI is the caller's job.
///
/// Every call decodes and scans on its own decoder and scanner, so calls from several threads at
/// once are safe.
public enum QRScanner {
    /// The most bytes an image may have: a phone screenshot is a few megabytes.
    public static let maximumByteCount = 64 << 20
    /// The most pixels an image may have on a side, read from its header.
    public static let maximumSideLength = 16_384
    /// The most pixels an image may have: 64 megapixels (8192 × 8192), one byte each once
    /// decoded, and as many again while zbar looks for light-on-dark codes.
    public static let maximumPixelCount = 8_192 * 8_192

    /// The payload of every QR code in a PNG or JPEG image, in the order zbar found them.
    ///
    /// - Parameter bytes: the image file's contents.
    /// - Returns: each code's bytes exactly, never empty: an image without a code throws.
    /// - Throws: ``QRScanError/noQRCode`` when the image holds no readable QR code;
    ///   ``QRScanError/emptyImage``, ``QRScanError/unsupportedFormat(detectedFormat:)``,
    ///   ``QRScanError/unreadableImage(format:reason:)``, ``QRScanError/imageTooLarge(width:height:)``
    ///   or ``QRScanError/fileTooLarge(byteCount:)`` when the image cannot be read;
    ///   ``QRScanError/scannerFailure(_:)`` when the decoder or scanner cannot run.
    public static func codes(inImage bytes: some Collection<UInt8>) throws(QRScanError) -> [[UInt8]] {
        // The error comes back as a Result: a typed error does not cross these methods, which
        // only rethrow `any Error`.
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(QRScanError) in try codes(inImage: UnsafeRawBufferPointer(buffer)) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(bytes).withUnsafeBytes { buffer in
            Result { () throws(QRScanError) in try codes(inImage: buffer) }
        }.get()
    }

    static func codes(inImage bytes: UnsafeRawBufferPointer) throws(QRScanError) -> [[UInt8]] {
        guard !bytes.isEmpty else { throw .emptyImage }
        guard bytes.count <= maximumByteCount else { throw .fileTooLarge(byteCount: bytes.count) }
        guard let format = ImageFormat(signatureOf: bytes) else {
            throw .unsupportedFormat(detectedFormat: ImageFormat.unsupportedFormatName(of: bytes))
        }
        let image =
            switch format {
            case .png: try GreyImage(png: bytes)
            case .jpeg: try GreyImage(jpeg: bytes)
            }
        let codes = try image.qrCodes()
        guard codes.isEmpty else { return codes }
        // A JPEG cut short still decodes, its missing part grey: the damage, not the picture, is
        // then the likelier reason no code was found.
        if let damage = image.damage { throw .unreadableImage(format: format, reason: damage) }
        throw .noQRCode
    }
}
