internal import CTurboJPEG

extension GreyImage {
    /// Decodes a JPEG image to grey with TurboJPEG, which takes the luminance of colour images.
    init(jpeg bytes: UnsafeRawBufferPointer) throws(QRScanError) {
        guard let handle = tjInitDecompress() else {
            throw .scannerFailure("libjpeg-turbo could not start a decompressor")
        }
        defer { tjDestroy(handle) }
        let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let size = UInt(bytes.count)
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, size, &width, &height, &subsampling, &colorspace) == 0 else {
            throw .unreadableImage(format: .jpeg, reason: Self.message(of: handle))
        }
        let count = try Self.pixelCount(width: Int(width), height: Int(height), format: .jpeg)
        var pixels = [UInt8](repeating: 0xFF, count: count)
        // A progressive JPEG can be crafted with thousands of scans, each a pass over the whole
        // image; TJFLAG_LIMITSCANS refuses more than 500.
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            tjDecompress2(
                handle, source, size, buffer.baseAddress, width, 0, height, Int32(TJPF_GRAY.rawValue), TJFLAG_LIMITSCANS)
        }
        var damage: String?
        if status != 0 {
            // A warning (data cut short, stray bytes) leaves a whole image, partly grey, that may
            // still hold a readable code.
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                throw .unreadableImage(format: .jpeg, reason: Self.message(of: handle))
            }
            damage = Self.message(of: handle)
        }
        self.init(width: Int(width), height: Int(height), pixels: pixels, damage: damage)
    }

    private static func message(of handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle), text.pointee != 0 else { return "unknown error" }
        return String(cString: text)
    }
}
