import FuzzSupport
import OTPPhoneNumber

/// libFuzzer entry point: feeds arbitrary text to phone number parsing (Google's libphonenumber,
/// C++, behind a C shim), as every `phoneNumber` a client sends reaches it: with no region, and
/// with a default region for national numbers. A number accepted has an E.164 form that parses
/// back to itself, and a mask that shows no more than its last four digits; a refusal says why.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhoneNumber(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for region in [nil, "US", "DE"] as [String?] {
        let number: PhoneNumber
        do {
            number = try PhoneNumber(parsing: text, defaultRegion: region)
        } catch {
            check(!error.description.isEmpty, "empty error message")
            continue
        }
        let e164 = number.e164
        check(e164.hasPrefix("+") && e164.dropFirst().allSatisfy(\.isASCII) && e164.dropFirst().allSatisfy(\.isNumber), "E.164 form \(e164)")
        do {
            let again = try PhoneNumber(parsing: e164)
            check(again.e164 == e164, "\(e164) parses back as \(again.e164)")
        } catch {
            check(false, "the E.164 form \(e164) of an accepted number is refused: \(error)")
        }
        check(number.masked.filter(\.isNumber).count <= 4 + 3, "the mask \(number.masked) shows more than the country code and last four digits")
    }
    return 0
}
