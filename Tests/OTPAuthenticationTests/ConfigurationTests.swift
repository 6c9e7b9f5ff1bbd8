import OTPAuthentication
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    @Test("adjacentIntervals outside 0...10 is a typed configuration error", arguments: [-1, 11, 100, Int.min])
    func adjacentIntervalsOutOfRange(_ value: Int) {
        let error = #expect(throws: MultiFactorConfigurationError.self) {
            try MultiFactorService(configuration: MultiFactorConfiguration(adjacentIntervals: value), store: InMemoryAuthStore())
        }
        #expect(error == .adjacentIntervalsOutOfRange(value))
        #expect(error?.description == "adjacentIntervals \(value) is out of range: use 0 to 10 (Firebase's default is 5)")
    }

    @Test("adjacentIntervals 0...10 is accepted; the default is Firebase's 5", arguments: [0, 1, 5, 10])
    func adjacentIntervalsInRange(_ value: Int) throws {
        let service = try MultiFactorService(configuration: MultiFactorConfiguration(adjacentIntervals: value), store: InMemoryAuthStore())
        #expect(service.configuration.adjacentIntervals == value)
        #expect(MultiFactorConfiguration().adjacentIntervals == 5)
    }

    @Test("durations, failure limit and secret length are checked")
    func otherSettings() {
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "enrollmentDeadline", seconds: 0)) {
            try MultiFactorConfiguration(enrollmentDeadline: 0).validate()
        }
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "pendingSignInLifetime", seconds: -5)) {
            try MultiFactorConfiguration(pendingSignInLifetime: -5).validate()
        }
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "recentLoginWindow", seconds: 0)) {
            try MultiFactorConfiguration(recentLoginWindow: 0).validate()
        }
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "lockoutDuration", seconds: 0)) {
            try MultiFactorConfiguration(lockoutDuration: 0).validate()
        }
        #expect(throws: MultiFactorConfigurationError.invalidFailureLimit(0)) {
            try MultiFactorConfiguration(maximumConsecutiveFailures: 0).validate()
        }
        #expect(throws: MultiFactorConfigurationError.invalidSecretByteCount(10)) {
            try MultiFactorConfiguration(secretByteCount: 10).validate()
        }
        #expect(
            MultiFactorConfigurationError.invalidFailureLimit(0).description
                == "maximumConsecutiveFailures 0 is below 1: use at least 1 (5 is a common choice)")
    }

    @Test("error codes carry Firebase's raw values and server codes")
    func errorCodes() {
        let expected: [(AuthErrorCode, Int, String)] = [
            (.invalidVerificationCode, 17044, "INVALID_CODE"),
            (.invalidVerificationID, 17046, "INVALID_SESSION_INFO"),
            (.missingVerificationCode, 17043, "MISSING_CODE"),
            (.sessionExpired, 17051, "SESSION_EXPIRED"),
            (.secondFactorRequired, 17078, "SECOND_FACTOR_REQUIRED"),
            (.missingMultiFactorSession, 17081, "MISSING_MFA_PENDING_CREDENTIAL"),
            (.missingMultiFactorInfo, 17082, "MISSING_MFA_ENROLLMENT_ID"),
            (.invalidMultiFactorSession, 17083, "INVALID_MFA_PENDING_CREDENTIAL"),
            (.multiFactorInfoNotFound, 17084, "MFA_ENROLLMENT_NOT_FOUND"),
            (.unverifiedEmail, 17086, "UNVERIFIED_EMAIL"),
            (.secondFactorAlreadyEnrolled, 17087, "SECOND_FACTOR_EXISTS"),
            (.maximumSecondFactorCountExceeded, 17088, "SECOND_FACTOR_LIMIT_EXCEEDED"),
            (.unsupportedFirstFactor, 17089, "UNSUPPORTED_FIRST_FACTOR"),
            (.invalidCustomToken, 17000, "INVALID_CUSTOM_TOKEN"),
            (.invalidUserToken, 17017, "INVALID_ID_TOKEN"),
            (.userTokenExpired, 17021, "TOKEN_EXPIRED"),
            (.requiresRecentLogin, 17014, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"),
            (.tooManyRequests, 17010, "TOO_MANY_ATTEMPTS_TRY_LATER"),
            (.operationNotAllowed, 17006, "OPERATION_NOT_ALLOWED"),
            (.internalError, 17999, "INTERNAL_ERROR"),
        ]
        for (code, rawValue, serverCode) in expected {
            #expect(code.rawValue == rawValue)
            #expect(code.serverCode == serverCode)
            #expect(AuthErrorCode(rawValue: rawValue) == code)
        }
    }
}
