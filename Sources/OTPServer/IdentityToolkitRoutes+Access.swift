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

    /// Admin calls need the administrator's credential: `Authorization: Bearer` with
    /// ``IdentityToolkitConfiguration/adminToken``, compared in constant time, or under the emulator
    /// (and never otherwise) `Bearer owner` in any letter case, as firebase-admin sends it there.
    /// A refusal never repeats what was presented.
    func checkAdmin(_ request: Request) throws(IdentityToolkitError) {
        let presented = request.headers[.authorization].flatMap(Self.bearerCredential)
        if let presented {
            if configuration.isEmulator, presented.lowercased() == "owner" { return }
            if let token = configuration.adminToken, ConstantTime.equal(Array(token.utf8), Array(presented.utf8)) { return }
        }
        let how =
            switch (configuration.adminToken != nil, configuration.isEmulator) {
            case (true, true): "Authorization: Bearer with the token of --admin-token-file, or Bearer owner under --emulator"
            case (true, false): "Authorization: Bearer with the token of --admin-token-file"
            case (false, true): "Authorization: Bearer owner under --emulator, or a token given to the server with --admin-token-file"
            case (false, false): "a token given to the server with --admin-token-file, sent as Authorization: Bearer TOKEN"
            }
        let what = presented == nil ? "this request carries no bearer credential" : "this request's bearer credential is not accepted"
        throw IdentityToolkitError(status: .unauthorized, "INSUFFICIENT_PERMISSION", "admin calls need \(how): \(what)")
    }

    /// The credential of an `Authorization: Bearer …` value (the scheme in any letter case), or
    /// `nil` for another scheme.
    package static func bearerCredential(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let credential = parts[1].trimmingPrefix(while: { $0 == " " })
        return credential.isEmpty ? nil : String(credential)
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
