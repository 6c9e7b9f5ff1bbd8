internal import OTPCommandSupport
internal import OTPImport
internal import OTPQRScan

extension CommandFailure {
    /// An export that could not be read, named by its file: a wrong password is 77 like a wrong
    /// vault passphrase, a damaged or unrecognized file 65.
    init(_ error: ImportError, file: String) {
        let status: ExitStatus
        switch error {
        case .wrongPassword: status = .noPermission
        case .passwordRequired: status = .usage
        case .unrecognizedFormat, .damaged, .unsupportedVersion, .malformed: status = .dataError
        }
        self.init(message: "\(file): \(error)", status: status)
    }

    /// An image that could not be scanned.
    init(_ error: QRScanError, file: String) {
        let status: ExitStatus
        switch error {
        case .unreadableFile: status = .noInput
        case .scannerFailure: status = .software
        default: status = .dataError
        }
        self.init(message: "\(file): \(error)", status: status)
    }
}
