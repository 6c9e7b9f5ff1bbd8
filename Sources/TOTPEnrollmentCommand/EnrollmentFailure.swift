internal import OTPEnrollment
internal import OTPEnrollmentSQLite
internal import OTPSealing

/// A failure reported as one line on standard error, with its exit status. Never holds a secret.
struct EnrollmentFailure: Error {
    static let keyVariable = "OTPKIT_SEALING_KEY"

    let message: String
    let exitCode: Int32

    static func refused(_ message: String) -> EnrollmentFailure { .init(message: message, exitCode: 1) }
    static func usage(_ message: String) -> EnrollmentFailure { .init(message: message, exitCode: 64) }

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: SealingError) {
        switch error {
        case .missingKey:
            self.init(message: "no sealing key: pass --key-file FILE or set \(Self.keyVariable) (create a key with `openssl rand -hex 32 > otpkit.key`)", exitCode: 66)
        case .unreadableKeyFile:
            self.init(message: error.description, exitCode: 66)
        default:
            self.init(message: error.description, exitCode: 64)
        }
    }

    init(_ error: SQLiteEnrollmentStoreError) {
        switch error {
        case .missingSealingKeys:
            self.init(message: error.description, exitCode: 64)
        default:
            self.init(message: error.description, exitCode: 74)
        }
    }

    init(_ error: AuthError) {
        self.init(message: error.description, exitCode: error.code == .internalError ? 74 : 1)
    }
}
