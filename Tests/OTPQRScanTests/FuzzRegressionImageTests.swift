import OTPQRScan
import OTPTestUtilities
import Testing

/// Images the FuzzQRImage libFuzzer target (Tests/Fuzz) stopped on, replayed: each refused with its
/// typed error, or read, never a crash.
@Suite("Fuzzer regressions: images")
struct FuzzRegressionImageTests {
    static let directory = "Tests/Fuzz/Regressions/FuzzQRImage"

    @Test("each image is read or refused with a message", arguments: try Fixture.fileNames(in: directory))
    func replay(_ name: String) throws {
        let bytes = try Fixture.data(Self.directory + "/" + name)
        do {
            let codes = try QRScanner.codes(inImage: bytes)
            #expect(!codes.isEmpty)
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    /// Found by the fuzzer: a 1 KiB PNG whose iTXt chunk claims 1.8 GB made libpng allocate and
    /// clear that much before finding the file short; the chunk frame is checked first now.
    @Test("a chunk claiming more bytes than the file has is refused before libpng reads it")
    func chunkLongerThanTheFile() throws {
        let bytes = try Fixture.data(Self.directory + "/itxt-claims-1.8-gb.png")
        #expect(throws: QRScanError.unreadableImage(format: .png, reason: "a chunk claims 1845494255 bytes, more than the file has left")) {
            _ = try QRScanner.codes(inImage: bytes)
        }
    }
}
