package import OTPQR

extension CommandFailure {
    /// Classifies a QR code error: libqrencode's and libpng's own failures are internal; text too
    /// long, a bad scale or margin are the caller's input.
    package init(_ error: QRCodeError, context: String? = nil) {
        let text = context.map { "\($0): \(error)" } ?? error.description
        switch error {
        case .encodingFailed, .pngFailure: self = .software(text)
        default: self = .usage(text)
        }
    }
}
