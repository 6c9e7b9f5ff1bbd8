internal import ArgumentParser
internal import OTPImport

/// What `--from` names: an export format, or `qr` for images of QR codes.
enum ImportSource: String, CaseIterable, ExpressibleByArgument {
    case aegis
    case twoFAS = "2fas"
    case andOTP = "andotp"
    case google
    case uriList = "uri-list"
    case qr

    /// The importer's format; `nil` for images.
    var format: ImportFormat? {
        switch self {
        case .aegis: .aegis
        case .twoFAS: .twoFAS
        case .andOTP: .andOTP
        case .google: .googleAuthenticator
        case .uriList: .uriList
        case .qr: nil
        }
    }
}
