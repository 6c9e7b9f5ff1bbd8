internal import OTPCommandSupport
internal import OTPEnrollment
internal import OTPEnrollmentPostgres
internal import OTPEnrollmentSQLite
internal import OTPSealing

// Here, not in OTPCommandSupport: classifying these errors needs the store and the service,
// which `totp` must not link.
extension CommandFailure {
    /// A missing or unreadable key is missing input; a malformed key is bad input.
    init(_ error: SealingError) {
        switch error {
        case .missingKey:
            self = .noInput(
                "no sealing key: pass --key-file FILE or set \(SealingKey.defaultEnvironmentVariable) (create a key with `openssl rand -hex 32 > otpkit.key`)"
            )
        case .unreadableKeyFile:
            self = .noInput(error.description)
        default:
            self = .usage(error.description)
        }
    }

    /// Rows sealed under a key that was not given are the caller's input; anything else is the
    /// database's failure.
    init(_ error: SQLiteEnrollmentStoreError) {
        switch error {
        case .missingSealingKeys: self = .usage(error.description)
        default: self = .ioError(error.description)
        }
    }

    /// A URL or libpq variable that cannot be used, and rows sealed under a key that was not
    /// given, are the caller's input; anything else (the server out of reach, the login refused,
    /// a lost connection) is the database's failure. The store's messages name the server as
    /// `user@host:port/database` and never hold the password or the URL.
    init(_ error: PostgresEnrollmentStoreError) {
        switch error {
        case .invalidURL, .invalidEnvironment, .missingSealingKeys: self = .usage(error.description)
        default: self = .ioError(error.description)
        }
    }

    /// Either store's failure as the store's own initialiser classifies it; nil for an error no
    /// store of this program throws.
    init?(storeFailure error: (any Error)?) {
        switch error {
        case let error as SQLiteEnrollmentStoreError: self.init(error)
        case let error as PostgresEnrollmentStoreError: self.init(error)
        default: return nil
        }
    }

    /// The service's refusals (a wrong code, a lock) are refusals; its store failures are I/O,
    /// reported with the store's own message: here the operator is the client, and the database
    /// path or server is what they need to see (a server keeps it out of what its clients see).
    ///
    /// A number that is not a phone number, a malformed address and a weak password are the
    /// caller's input. A message that could not be
    /// sent is reported with the sender's own words, for the same reason as a store failure.
    init(_ error: AuthError) {
        if let storeFailure = CommandFailure(storeFailure: error.underlyingError) {
            self = storeFailure
        } else if let sendError = error.underlyingError as? SMSSendError {
            self.init(sendError)
        } else if [.invalidPhoneNumber, .invalidEmail, .weakPassword, .invalidProviderID].contains(error.code) {
            self = .usage(error.description)
        } else {
            self = error.code == .internalError ? .ioError(error.description) : .refused(error.description)
        }
    }

    /// A sender that cannot work as configured (or none at all) is the caller's options; a
    /// message the gateway or program refused, or that did not get through, is an unavailable
    /// service.
    init(_ error: SMSSendError) {
        switch error.reason {
        case .misconfigured(let detail) where error.sender == UnconfiguredSMSSender.name:
            self = .usage(detail)
        case .misconfigured:
            self = .usage(error.description)
        case .rejected, .timedOut, .unreachable:
            self = .unavailable("the text message with the code could not be sent: \(error)")
        }
    }
}
