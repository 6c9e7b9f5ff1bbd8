internal import OTPPhoneNumber

extension MultiFactorInfo {
    /// The info of a phone factor, with its number whole (for its owner) or `masked` (for hints).
    init(_ record: PhoneFactorRecord, masked: Bool) {
        // A test number (fictional, so libphonenumber refuses it) is masked all but its last four.
        let number =
            masked
            ? ((try? PhoneNumber(parsing: record.phoneNumber))?.masked
                ?? "+" + String(repeating: "*", count: max(0, record.phoneNumber.count - 5)) + record.phoneNumber.suffix(4))
            : record.phoneNumber
        self.init(
            uid: record.id, displayName: record.displayName, enrollmentTime: record.enrolledAt, factorID: PhoneMultiFactorID, phoneNumber: number)
    }
}

/// The factor id of phone factors (Firebase's `PhoneMultiFactorID`).
public let PhoneMultiFactorID = FactorKind.phone.factorID
