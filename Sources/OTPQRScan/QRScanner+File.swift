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
        let file: POSIXFile
        do {
            file = try POSIXFile.openForReading(path)
        } catch {
            throw .unreadableFile(path: path, reason: error.description)
        }
        defer { try? file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(POSIXFile.Failure) in try file.read(into: buffer) }
            }
            let count: Int
            switch read {
            case .success(let byteCount): count = byteCount
            case .failure(let failure): throw .unreadableFile(path: path, reason: failure.description)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            // Checked while reading, so that a huge file or an endless stream is not read whole first.
            guard bytes.count <= maximumByteCount else { throw .fileTooLarge(byteCount: bytes.count) }
        }
    }
}
