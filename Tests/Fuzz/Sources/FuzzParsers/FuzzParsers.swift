import FuzzSupport
import OTPCore
import OTPURI

/// libFuzzer entry point: feeds arbitrary bytes to the Base32 decoder and to both otpauth://
/// parsers, and checks the properties that must hold for whatever they accept. A failed check
/// traps, which libFuzzer reports as a crash with the input that caused it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParsers(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    checkBase32(text)
    checkURI(text, mode: .lenient)
    checkURI(text, mode: .strict)
    return 0
}

private func checkBase32(_ text: String) {
    let lenient: [UInt8]
    do {
        lenient = try Base32.decode(text, mode: .lenient)
    } catch {
        check(!error.description.isEmpty, "empty error message")
        check((try? Base32.decode(text, mode: .strict)) == nil, "strict accepted what lenient rejected")
        return
    }
    check(try! Base32.decode(Base32.encode(lenient), mode: .strict) == lenient, "Base32 round trip")
    if let strict = try? Base32.decode(text, mode: .strict) {
        check(strict == lenient, "strict and lenient disagree")
    }
}

private func checkURI(_ text: String, mode: OTPAuthURI.ParsingMode) {
    let parsed: OTPAuthURI
    do {
        parsed = try OTPAuthURI(parsing: text, mode: mode)
    } catch {
        check(!error.description.isEmpty, "empty error message")
        return
    }
    // Whatever a parser accepts formats to a URI that the parsers read back unchanged.
    let formatted = parsed.string
    // Strict parsing needs an account name and unique parameter names; lenient parsing keeps
    // repeated unknown parameters.
    let names = parsed.additionalParameters.map(\.name)
    let strictReadable = !parsed.accountName.isEmpty && Set(names).count == names.count
    let modes: [OTPAuthURI.ParsingMode] = strictReadable ? [.lenient, .strict] : [.lenient]
    for readBack in modes {
        do {
            let again = try OTPAuthURI(parsing: formatted, mode: readBack)
            check(again == parsed, "\(readBack) round trip changed the model: \(formatted)")
        } catch {
            check(false, "\(readBack) parser rejected the formatted URI \(formatted): \(error)")
        }
    }
    check(formatted.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "formatted URI not plain ASCII: \(formatted)")
}
