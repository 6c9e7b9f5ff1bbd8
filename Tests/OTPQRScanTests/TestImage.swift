import CPNG
import CTurboJPEG
import OTPQR

/// Grey pixels the tests compose (inverted, several codes side by side) and write as PNG or JPEG,
/// which OTPQR's renderer, one dark-on-light code per image, cannot.
struct TestImage {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(width: Int, height: Int, grey: UInt8 = 0xFF) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: grey, count: width * height)
    }

    /// `code` drawn dark on light, `scale` pixels per module, with a quiet zone of `margin` modules.
    init(_ code: QRCode, scale: Int = 6, margin: Int = QRCode.quietZone) {
        let side = (code.size + 2 * margin) * scale
        self.init(width: side, height: side)
        for y in 0..<side {
            for x in 0..<side where code[y / scale - margin, x / scale - margin] {
                pixels[y * side + x] = 0
            }
        }
    }

    /// Light on dark, as dark-mode apps draw codes.
    func inverted() -> TestImage {
        var copy = self
        copy.pixels = pixels.map { 0xFF - $0 }
        return copy
    }

    /// `images` next to one another from left to right, on white, top-aligned.
    static func sideBySide(_ images: [TestImage]) -> TestImage {
        var result = TestImage(width: images.reduce(0) { $0 + $1.width }, height: images.map(\.height).max() ?? 0)
        var left = 0
        for image in images {
            for y in 0..<image.height {
                let row = image.pixels[(y * image.width)..<((y + 1) * image.width)]
                result.pixels.replaceSubrange((y * result.width + left)..<(y * result.width + left + image.width), with: row)
            }
            left += image.width
        }
        return result
    }

    /// An 8-bit greyscale PNG written by libpng.
    func pngData() throws -> [UInt8] {
        var image = png_image()
        image.version = CPNG_image_version()
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = CPNG_format_gray()
        defer { png_image_free(&image) }
        var byteCount = png_alloc_size_t(0)
        // A first call with no buffer gives the size.
        guard pixels.withUnsafeBytes({ png_image_write_to_memory(&image, nil, &byteCount, 0, $0.baseAddress, Int32(width), nil) }) != 0
        else { throw Failure(description: "libpng could not size the PNG") }
        var output = [UInt8](repeating: 0, count: Int(byteCount))
        let written = output.withUnsafeMutableBytes { destination in
            pixels.withUnsafeBytes { png_image_write_to_memory(&image, destination.baseAddress, &byteCount, 0, $0.baseAddress, Int32(width), nil) }
        }
        guard written != 0 else { throw Failure(description: "libpng could not write the PNG") }
        return Array(output.prefix(Int(byteCount)))
    }

    /// A greyscale JPEG written by TurboJPEG at `quality` (1 to 100).
    func jpegData(quality: Int32 = 90, progressive: Bool = false) throws -> [UInt8] {
        guard let handle = tjInitCompress() else { throw Failure(description: "TurboJPEG could not start a compressor") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { tjFree(buffer) }
        let flags = progressive ? TJFLAG_PROGRESSIVE : 0
        let status = pixels.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_GRAY.rawValue), &buffer, &size,
                Int32(TJSAMP_GRAY.rawValue), quality, flags)
        }
        guard status == 0, let buffer else {
            throw Failure(description: "TurboJPEG could not write the JPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }
}
