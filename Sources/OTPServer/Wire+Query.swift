internal import OTPAuthentication

extension Wire {
    /// `accounts:query` (`QueryUserInfoRequest`): one expression (only the first is read, as
    /// Identity Toolkit says) by `email`, `userId` or `phoneNumber`, or every account.
    struct QueryRequest: Decodable {
        struct Expression: Decodable {
            var email: String?
            var userId: String?
            var phoneNumber: String?
        }
        var expression: [Expression]?
        var limit: Int64Value?
        var offset: Int64Value?
        var order: String?
        var sortBy: String?
        var returnUserInfo: Bool?
    }

    struct QueryResponse: Encodable {
        /// With `returnUserInfo` the accounts of this answer, otherwise every account matching;
        /// int64 as a string, as the API types it.
        var recordsCount: String
        var userInfo: [WireUser]?
    }
}
