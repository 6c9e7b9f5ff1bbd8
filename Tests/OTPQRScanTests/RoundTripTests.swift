import OTPQR
import OTPQRScan
import OTPTestUtilities
import Testing

/// Codes drawn by OTPKit's own encoder (OTPQR, libqrencode) scan back to exactly the bytes encoded.
@Suite("Round trips through OTPQR")
struct RoundTripTests {
    struct Payload: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    /// Deterministic bytes, so that a failure can be reproduced.
    static func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// A Google Authenticator export URI as long as a batch of ten accounts makes it.
    static let longMigrationURI: String = {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let data = pseudoRandomBytes(count: 1_400, seed: 7).map { byte -> String in
            // Base64's '+', '/' and '=' are percent-escaped in these URIs.
            switch byte % 70 {
            case 64: "%2B"
            case 65: "%2F"
            case 66: "%3D"
            case let index where index < 62: String(alphabet[Int(index)])
            default: "A"
            }
        }.joined()
        return "otpauth-migration://offline?data=" + data
    }()

    static let payloads: [Payload] = [
        Payload(name: "otpauth URI", bytes: Array("otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example".utf8)),
        // Every byte value, in an order where invalid UTF-8 sequences and Latin-1-looking bytes
        // (which zbar would convert without binary mode) are everywhere.
        Payload(name: "every byte value, not UTF-8", bytes: Array(UInt8.min...UInt8.max).shuffledDeterministically()),
        Payload(name: "Latin-1 bytes zbar would take for text", bytes: [0x4A, 0xFC, 0x72, 0x67, 0x65, 0x6E, 0xE9, 0xA9, 0xB5]),
        Payload(name: "a single NUL byte", bytes: [0]),
        Payload(name: "long otpauth-migration URI (\(longMigrationURI.utf8.count) bytes)", bytes: Array(longMigrationURI.utf8)),
        Payload(name: "UTF-8 text", bytes: Array("Bürö: jürgen 😀 中文".utf8)),
    ]

    @Test("A PNG from QRCode.pngData scans back to exactly the encoded bytes", arguments: payloads)
    func pngRoundTrip(_ payload: Payload) throws {
        let code = try QRCode(encoding: payload.bytes)
        let png = try code.pngData(scale: code.size > 100 ? 4 : 6)
        #expect(try QRScanner.codes(inImage: png) == [payload.bytes], "version \(code.version)")
    }

    @Test("Every error correction level scans", arguments: QRCode.ErrorCorrection.allCases)
    func errorCorrectionLevels(_ level: QRCode.ErrorCorrection) throws {
        let bytes = Array("otpauth://totp/ACME:bob?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME&algorithm=SHA256".utf8)
        #expect(try QRScanner.codes(inImage: QRCode(encoding: bytes, errorCorrection: level).pngData()) == [bytes])
    }

    @Test("A light-on-dark code scans")
    func inverted() throws {
        let bytes = Array("otpauth://totp/Dark:mode?secret=JBSWY3DPEHPK3PXP".utf8)
        let image = TestImage(try QRCode(encoding: bytes)).inverted()
        #expect(try QRScanner.codes(inImage: image.pngData()) == [bytes])
    }

    @Test("Two codes side by side in one image both come back")
    func twoCodes() throws {
        let first = Array("otpauth-migration://offline?data=CjMKCkhlbGxvId6tvu8SGFRlc3QxOnRlc3Qx".utf8)
        let second = Array("otpauth://totp/Second:carol?secret=KRSXG5CTMVRXEZLU".utf8)
        let image = TestImage.sideBySide([TestImage(try QRCode(encoding: first)), TestImage(try QRCode(encoding: second))])
        let codes = try QRScanner.codes(inImage: image.pngData())
        #expect(codes.count == 2)
        #expect(Set(codes) == [first, second])
    }

    @Test("A JPEG written by TurboJPEG scans, baseline and progressive", arguments: [false, true])
    func jpeg(progressive: Bool) throws {
        let bytes = Array("otpauth://totp/Photo:dave?secret=JBSWY3DPEHPK3PXP&issuer=Photo".utf8)
        let jpeg = try TestImage(try QRCode(encoding: bytes)).jpegData(quality: 75, progressive: progressive)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try QRScanner.codes(inImage: jpeg) == [bytes])
    }

    @Test("Bytes not stored contiguously scan the same")
    func nonContiguousCollection() throws {
        let bytes = Array("otpauth://totp/a?secret=JBSWY3DPEHPK3PXP".utf8)
        let png = try QRCode(encoding: bytes).pngData()
        // A lazy map has no contiguous storage, so the scanner copies it first.
        #expect(try QRScanner.codes(inImage: png.lazy.map { $0 }) == [bytes])
    }
}

extension Array {
    /// A fixed permutation (a stride coprime with the count), the same on every run.
    func shuffledDeterministically() -> [Element] {
        indices.map { self[($0 * 97 + 13) % count] }
    }
}
