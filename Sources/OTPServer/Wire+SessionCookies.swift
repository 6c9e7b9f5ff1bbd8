internal import OTPAuthentication

extension Wire {
    struct SessionCookieRequest: Decodable {
        var idToken: String?
        var validDuration: Int64Value?
    }

    struct SessionCookieResponse: Encodable {
        var sessionCookie: String
    }
}
