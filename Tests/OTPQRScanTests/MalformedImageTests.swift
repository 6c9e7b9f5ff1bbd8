import Foundation
import OTPQR
import OTPQRScan
import OTPTestUtilities
import Testing

/// Bad input gives its own typed error, never a crash, and no message carries a code's payload.
@Suite("Malformed and oversized images")
struct MalformedImageTests {
    static let payload = Array("otpauth://totp/Leak:test?secret=PAYLOADMUSTNOTLEAK".utf8)
    static let png = try! QRCode(encoding: payload).pngData()
    static let jpeg = try! TestImage(try! QRCode(encoding: payload)).jpegData()

    /// Runs `body` and returns its typed error; fails the test if it returned codes instead.
    func error(_ body: @autoclosure () throws(QRScanError) -> [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) -> QRScanError? {
        do {
            let codes = try body()
            Issue.record("expected an error, got \(codes.count) codes", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(!error.description.contains("PAYLOAD"), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), "\(error)", sourceLocation: sourceLocation)
            return error
        }
    }

    @Test("An empty image and an empty file give the empty-image error")
    func empty() throws {
        #expect(error(try QRScanner.codes(inImage: [UInt8]())) == .emptyImage)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = FileManager.default.createFile(atPath: directory.file("empty.png"), contents: Data())
        #expect(error(try QRScanner.codes(inImageFile: directory.file("empty.png"))) == .emptyImage)
    }

    @Test("Random bytes are not a supported format, and the message names the supported ones")
    func randomBytes() throws {
        var bytes = RoundTripTests.pseudoRandomBytes(count: 4096, seed: 42)
        bytes[0] = 0x00  // neither PNG's 0x89 nor JPEG's 0xFF
        let error = error(try QRScanner.codes(inImage: bytes))
        #expect(error == .unsupportedFormat(detectedFormat: nil))
        #expect(error?.description.contains("supported: PNG, JPEG") == true)
        // Text, such as a URI saved with an image's name.
        #expect(
            self.error(try QRScanner.codes(inImage: Array("otpauth://totp/x".utf8)))
                == .unsupportedFormat(detectedFormat: nil))
    }

    /// The first bytes of formats people save QR codes in that are not decoded here.
    static let otherFormatSignatures: [(String, [UInt8])] = [
        ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0]),
        ("WebP", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
        ("BMP", Array("BM".utf8) + [0, 0, 0, 0]),
        ("TIFF", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]),
        ("HEIF", [0, 0, 0, 0x18] + Array("ftypheic".utf8)),
    ]

    @Test("Other image formats are named in the error", arguments: otherFormatSignatures)
    func otherFormats(name: String, bytes: [UInt8]) {
        let error = error(try QRScanner.codes(inImage: bytes))
        #expect(error == .unsupportedFormat(detectedFormat: name))
        #expect(error?.description.hasPrefix("a \(name) image (supported: PNG, JPEG)") == true)
    }

    @Test("A PNG cut short before its end chunk is unreadable, whatever the length")
    func truncatedPNG() throws {
        #expect(isUnreadable(error(try QRScanner.codes(inImage: Self.png.prefix(Self.png.count / 2))), .png))
        // The last 12 bytes are the empty IEND chunk: without it every pixel is still there, and
        // libpng's simplified API does not read past the image data.
        let imageEnd = Self.png.count - 12
        #expect(Self.png[imageEnd...].starts(with: [0, 0, 0, 0] + Array("IEND".utf8)))
        for length in Array(stride(from: 1, to: imageEnd, by: 7)) + [imageEnd - 1] {
            let error = error(try QRScanner.codes(inImage: Self.png.prefix(length)))
            // Fewer bytes than the signature are not recognisably PNG at all.
            if length < 8 {
                #expect(error == .unsupportedFormat(detectedFormat: nil), "length \(length)")
            } else {
                #expect(isUnreadable(error, .png), "length \(length): \(String(describing: error))")
            }
        }
        #expect(try QRScanner.codes(inImage: Self.png.prefix(imageEnd)) == [Self.payload])
    }

    @Test("A JPEG cut short is unreadable, or still reads when only its end is missing")
    func truncatedJPEG() {
        #expect(isUnreadable(error(try QRScanner.codes(inImage: Self.jpeg.prefix(Self.jpeg.count / 2))), .jpeg))
        for length in stride(from: 3, to: Self.jpeg.count, by: 29) {
            // libjpeg-turbo fills what is missing with grey: a code whose modules all arrived reads.
            do {
                #expect(try QRScanner.codes(inImage: Self.jpeg.prefix(length)) == [Self.payload], "length \(length)")
            } catch {
                #expect(isUnreadable(error, .jpeg), "length \(length): \(error)")
                #expect(!error.description.contains("PAYLOAD"))
            }
        }
    }

    @Test("Garbage after a valid signature is unreadable", arguments: [ImageFormat.png, .jpeg])
    func garbageAfterSignature(_ format: ImageFormat) {
        let signature: [UInt8] = format == .png ? [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] : [0xFF, 0xD8, 0xFF]
        for seed in UInt64(1)...20 {
            let bytes = signature + RoundTripTests.pseudoRandomBytes(count: 2048, seed: seed)
            #expect(isUnreadable(error(try QRScanner.codes(inImage: bytes)), format), "seed \(seed)")
        }
    }

    @Test("Flipped bytes in a valid image never crash the decoders or the scanner", arguments: [ImageFormat.png, .jpeg])
    func flippedBytes(_ format: ImageFormat) {
        let original = format == .png ? Self.png : Self.jpeg
        let noise = RoundTripTests.pseudoRandomBytes(count: 400, seed: 99)
        for round in 0..<200 {
            var bytes = original
            let high = Int(noise[2 * round % noise.count])
            let low = Int(noise[(2 * round + 1) % noise.count])
            let position = 2 + (high << 8 | low) % (bytes.count - 2)
            bytes[position] ^= noise[round % noise.count] | 1
            // Either the code still reads (error correction, a chunk libpng ignores) or a typed error.
            do {
                let codes = try QRScanner.codes(inImage: bytes)
                #expect(codes.allSatisfy { !$0.isEmpty })
            } catch {
                #expect(!error.description.contains("PAYLOAD"))
            }
        }
    }

    @Test(
        "A PNG header claiming too many pixels is refused before decoding",
        arguments: [(20_000, 20_000), (16_385, 1), (1, 16_385), (9_000, 9_000)])
    func oversizedPNGHeader(width: Int, height: Int) {
        var bytes = Self.png
        // IHDR's width and height follow the signature, the chunk length and the type; its CRC
        // covers the type and the 13 bytes of data.
        bytes.replaceSubrange(16..<24, with: Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height)))
        bytes.replaceSubrange(29..<33, with: Self.bigEndian(Self.crc32(bytes[12..<29])))
        let error = error(try QRScanner.codes(inImage: bytes))
        #expect(error == .imageTooLarge(width: width, height: height))
        #expect(error?.description.contains("\(width) × \(height) pixels") == true)
    }

    @Test("A JPEG header claiming too many pixels is refused before decoding")
    func oversizedJPEGHeader() throws {
        var bytes = Self.jpeg
        // The frame header (SOF0): marker, length, precision, then height and width.
        let marker = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((marker + 5)..<(marker + 9), with: [0x4E, 0x20, 0x4E, 0x20])
        #expect(error(try QRScanner.codes(inImage: bytes)) == .imageTooLarge(width: 20_000, height: 20_000))
    }

    @Test("More bytes than the limit are refused, in memory and from a file")
    func tooManyBytes() throws {
        let bytes = [UInt8](repeating: 0, count: QRScanner.maximumByteCount + 1)
        #expect(error(try QRScanner.codes(inImage: bytes)) == .fileTooLarge(byteCount: bytes.count))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A sparse file: its size without writing its bytes.
        let path = directory.file("huge.png")
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.png))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(QRScanner.maximumByteCount) * 4)
        try handle.close()
        let error = error(try QRScanner.codes(inImageFile: path))
        guard case .fileTooLarge(let byteCount) = error else {
            Issue.record("expected fileTooLarge, got \(String(describing: error))")
            return
        }
        // Reading stops soon after the limit rather than reading the whole file.
        #expect(byteCount > QRScanner.maximumByteCount && byteCount <= QRScanner.maximumByteCount + (1 << 16))
    }

    @Test("A missing file and a directory are unreadable files")
    func unreadableFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.file("missing.png")
        #expect(
            error(try QRScanner.codes(inImageFile: missing))
                == .unreadableFile(path: missing, reason: "No such file or directory"))
        #expect(
            error(try QRScanner.codes(inImageFile: directory.path))
                == .unreadableFile(path: directory.path, reason: "Is a directory"))
    }

    @Test("Every message is one line saying what was wrong and what to do")
    func descriptions() {
        let errors: [QRScanError] = [
            .emptyImage, .unsupportedFormat(detectedFormat: nil), .unsupportedFormat(detectedFormat: "GIF"),
            .unreadableImage(format: .png, reason: "IDAT: CRC error"), .imageTooLarge(width: 20_000, height: 1),
            .fileTooLarge(byteCount: 70_000_000), .noQRCode, .unreadableFile(path: "/tmp/x\ny.png", reason: "Permission denied"),
            .scannerFailure("zbar could not create a scanner"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"), "\(error)")
            // The part after the last colon is the advice.
            #expect(error.description.split(separator: ":").count >= 2, "\(error)")
        }
        #expect(QRScanError.imageTooLarge(width: 20_000, height: 1).description.contains("16384 pixels a side and 64 megapixels"))
        #expect(QRScanError.fileTooLarge(byteCount: 70_000_000).description.contains("64 MiB"))
        #expect(QRScanError.unreadableImage(format: .jpeg, reason: "x").description.hasPrefix("the JPEG image is corrupt"))
    }

    func isUnreadable(_ error: QRScanError?, _ format: ImageFormat) -> Bool {
        guard case .unreadableImage(let actual, let reason) = error else { return false }
        return actual == format && !reason.isEmpty
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 PNG chunks carry (ISO 3309, reflected, polynomial 0xEDB88320).
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
