import Foundation
import FuzzSupport
import OTPImport
import OTPURI

/// libFuzzer entry point: feeds arbitrary bytes to `totp import`'s reader of other authenticators'
/// exports (Aegis, 2FAS, andOTP, URI lists, Google Authenticator migration URIs), format detected
/// as the command detects it. Without a password: an encrypted export stops at the password, and
/// what a key derivation would cost is the vault's bounded parameters' business, not parsing's;
/// the plain forms of the same formats reach the content parsers the decrypted ones use.
///
/// Whatever is imported must format to a key URI that reads back as the same account; whatever is
/// refused must say why.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let result: ImportResult
    do {
        result = try Importer.importAccounts(from: bytes)
    } catch {
        check(!error.description.isEmpty, "empty error message")
        return 0
    }
    for account in result.accounts {
        let formatted = account.string
        do {
            let again = try OTPAuthURI(parsing: formatted, mode: .lenient)
            check(again == account, "an imported account does not read back from its URI \(formatted)")
        } catch {
            check(false, "an imported account formats to a URI its parser refuses: \(formatted): \(error)")
        }
    }
    for skipped in result.skipped {
        check(!skipped.reason.description.isEmpty, "a skipped entry without a reason")
    }
    return 0
}
