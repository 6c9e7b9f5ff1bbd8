internal import OTPCore

extension QRScanner {
    /// The payload of every QR code in the PNG or JPEG image file at `path`, in the order zbar
    /// found them.
    ///
    /// The file is read whole, at most ``maximumByteCount`` bytes; its name and extension play no
    /// part in telling its format.
    /// - Throws: ``QRScanError/unreadableFile(path:reason:)`` when the file cannot be opened or
    ///   read, ``QRScanError/fileTooLarge(byteCount:)`` when it has too many bytes, and whatever
    ///   ``codes(inImage:)`` throws.
    public static func codes(inImageFile path: String) throws(QRScanError) -> [[UInt8]] {
        try codes(inImage: contents(ofFile: path))
    }

    private static func contents(ofFile path: String) throws(QRScanError) -> [UInt8] {
        do {
            return try POSIXFile.contents(ofFile: path, atMost: maximumByteCount)
        } catch {
            switch error {
            case .unreadable(let failure): throw .unreadableFile(path: path, reason: failure.description)
            case .tooLarge: throw .fileTooLarge(byteCount: maximumByteCount + 1)
            }
        }
    }
}
