internal import ArgumentParser
internal import Foundation
internal import OTPServer

/// One `--custom-token-signer` value: `EMAIL=FILE`, a service account whose custom tokens
/// `accounts:signInWithCustomToken` accepts, with the file of its public certificates as Google
/// publishes them (`https://www.googleapis.com/robot/v1/metadata/x509/EMAIL`, a JSON object of
/// key ids and PEM certificates), read once at start.
struct CustomTokenSignerOption {
    let signer: CustomTokenSigner

    static let valueHelp = "EMAIL=CERTIFICATES_FILE"

    init(parsing argument: String) throws(ValidationError) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex, argument.index(after: equals) != argument.endIndex else {
            throw ValidationError("--custom-token-signer takes \(Self.valueHelp)")
        }
        let email = String(argument[..<equals])
        let path = String(argument[argument.index(after: equals)...])
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--custom-token-signer \(email): cannot read \(path): \((error as NSError).localizedDescription)")
        }
        do {
            signer = try CustomTokenSigner(email: email, certificatesJSON: contents)
        } catch {
            throw ValidationError("--custom-token-signer \(email): \(path): \(error)")
        }
    }
}
