package import OTPVault

extension CommandFailure {
    /// A vault failure with the exit status a script can act on: a wrong passphrase or key file is
    /// 77 (`EX_NOPERM`), a busy vault 75 (`EX_TEMPFAIL`), a damaged or foreign file 65
    /// (`EX_DATAERR`), a missing vault or key file 66 (`EX_NOINPUT`), and an I/O failure 74.
    package init(_ error: VaultError) {
        let status: ExitStatus
        switch error {
        case .wrongCredential, .noSlot, .wrongMasterKey: status = .noPermission
        case .busy: status = .temporaryFailure
        case .damaged, .malformed, .malformedContent, .fileTooLarge, .unsupportedVersion, .unsupportedContentVersion,
            .unsupportedSlotType, .tooManySlots, .scryptParametersOutOfRange:
            status = .dataError
        case .notFound, .keyFileMissing, .keyFileUnreadable: status = .noInput
        case .keyFileNotPrivate, .keyFileInvalid, .keyFileWrongLength, .passphraseUnavailable, .lastSlot: status = .usage
        case .fileFailure, .sessionFailure: status = .ioError
        case .cryptoFailure: status = .software
        }
        self.init(message: error.description, status: status)
    }
}
