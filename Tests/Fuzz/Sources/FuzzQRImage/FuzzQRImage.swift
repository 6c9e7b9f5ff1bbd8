import FuzzSupport
import OTPQRScan

/// libFuzzer entry point: feeds arbitrary bytes to the image reader of `totp add --qr` and
/// `totp import` (libpng, TurboJPEG, then zbar): C libraries given files a user downloaded. No
/// crash, no allocation the header's bounds did not allow, and every refusal says why; a code
/// found is never empty.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQRImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do {
        let codes = try QRScanner.codes(inImage: UnsafeBufferPointer(start: data, count: size))
        check(!codes.isEmpty && codes.allSatisfy { !$0.isEmpty }, "an image read with an empty list or an empty code")
    } catch {
        check(!error.description.isEmpty, "empty error message")
    }
    return 0
}
