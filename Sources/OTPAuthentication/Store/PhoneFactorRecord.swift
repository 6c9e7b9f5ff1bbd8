/// An enrolled phone second factor: the number that receives its codes.
public struct PhoneFactorRecord: Sendable, Hashable {
    /// The enrollment id (Firebase's `MultiFactorInfo.uid`); unique among all factors.
    public var id: String
    /// The user the factor belongs to.
    public var userID: String
    /// The name the user gave the factor, if any.
    public var displayName: String?
    /// When the factor was enrolled.
    public var enrolledAt: Int64
    /// The number in E.164 form (`+15555550100`), as libphonenumber normalized it.
    public var phoneNumber: String

    /// Creates a record.
    public init(id: String, userID: String, displayName: String?, enrolledAt: Int64, phoneNumber: String) {
        self.id = id
        self.userID = userID
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneNumber = phoneNumber
    }
}
