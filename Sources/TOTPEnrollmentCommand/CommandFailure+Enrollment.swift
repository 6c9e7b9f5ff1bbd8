internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPDurableStore
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

    /// A store's failure by its kind: what the caller gave that cannot work (a URL or variable,
    /// rows sealed under a key that was not given) is their input; anything else (the server out
    /// of reach, the login refused, a lost connection, a damaged file) is the database's failure.
    /// The stores' messages name the file or the server as `user@host:port/database`, never a
    /// password or the URL. `nil` for an error that is not a store's.
    init?(storeFailure error: (any Error)?) {
        guard let error = error as? any ClassifiedStoreError else { return nil }
        self = error.kind == .configuration ? .usage(error.description) : .ioError(error.description)
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
