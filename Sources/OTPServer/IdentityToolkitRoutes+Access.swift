internal import Hummingbird
internal import OTPCore

extension IdentityToolkitRoutes {
    /// Client calls carry an API key in `key=` or `X-Goog-Api-Key`, as Google's front end wants:
    /// none is 403 `PERMISSION_DENIED`; an unknown one 400 with reason `keyInvalid`, which iOS maps
    /// to `invalidAPIKey`. Under the emulator any key is accepted, as Firebase's emulator does.
    func checkAPIKey(_ request: Request) throws(IdentityToolkitError) {
        let presented =
            request.uri.queryParameters["key"].map(String.init)
            ?? request.headers.first(where: { $0.name.canonicalName == "x-goog-api-key" })?.value
        guard let presented, !presented.isEmpty else {
            throw IdentityToolkitError(
                status: .forbidden, "PERMISSION_DENIED", "The request is missing a valid API key: add ?key=YOUR_API_KEY to the URL")
        }
        if configuration.isEmulator { return }
        let candidate = Array(presented.utf8)
        // Every configured key is compared, in constant time each, so the time taken says nothing
        // about which key came close.
        var matched = false
        for key in configuration.apiKeys where ConstantTime.equal(Array(key.utf8), candidate) {
            matched = true
        }
        guard matched else {
            throw IdentityToolkitError("API_KEY_INVALID", "API key not valid. Please pass a valid API key.", reason: "keyInvalid")
        }
    }

    /// Admin calls need the administrator's credential. This version has only the emulator's:
    /// `Authorization: Bearer owner` (any letter case), accepted under the emulator and never otherwise.
    func checkAdmin(_ request: Request) throws(IdentityToolkitError) {
        guard configuration.isEmulator else {
            throw IdentityToolkitError(
                status: .unauthorized, "INSUFFICIENT_PERMISSION",
                "admin calls are served only under --emulator in this version (Authorization: Bearer owner)")
        }
        guard let authorization = request.headers[.authorization], authorization.lowercased() == "bearer owner" else {
            throw IdentityToolkitError(
                status: .unauthorized, "INSUFFICIENT_PERMISSION", "admin calls need the header Authorization: Bearer owner under --emulator")
        }
    }

    /// The body, read up to ``IdentityToolkitConfiguration/maximumBodyBytes``; a longer one is
    /// refused before it is decoded.
    func readBody(_ request: Request) async throws(IdentityToolkitError) -> JSONBody {
        var request = request
        let limit = configuration.maximumBodyBytes
        do {
            let buffer = try await request.collectBody(upTo: limit)
            return JSONBody(bytes: Array(buffer.readableBytesView))
        } catch {
            throw IdentityToolkitError("INVALID_ARGUMENT", "The request body is larger than \(limit) bytes.")
        }
    }
}
