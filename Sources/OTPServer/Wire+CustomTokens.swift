extension Wire {
    struct CustomTokenSignInRequest: Decodable {
        var token: String?
        var tenantId: String?
        var returnSecureToken: Bool?
    }

    struct CustomTokenSignInResponse: Encodable {
        var kind = "identitytoolkit#VerifyCustomTokenResponse"
        var idToken: String
        var refreshToken: String
        var expiresIn: String
        var isNewUser: Bool
    }
}
