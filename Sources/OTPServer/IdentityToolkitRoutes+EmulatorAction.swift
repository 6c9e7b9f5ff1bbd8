internal import Foundation
internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `GET /emulator/action`, under the emulator only: where its email links lead, so that a test
    /// suite (or a developer's browser) following a link does what Firebase's emulator does there.
    /// A verification, a change of address or a restored address is applied at once; a password
    /// reset needs `&newPassword=…` added to the link; a sign-in link sends the browser on to its
    /// `continueUrl` with the link's parameters. Each answers the emulator's
    /// `{"authEmulator":{"success"|"error":…}}`, or a 303 to `continueUrl` when the link has one.
    ///
    /// A GET that changes an account, as the emulator's does: the emulator serves loopback only,
    /// and a production server has no such path (its links go to the operator's action page). The
    /// emulator picks the project by the link's `apiKey`; this server has one project, and reads none.
    func addEmulatorActionRoute<Context: RequestContext>(to router: Router<Context>) {
        guard configuration.isEmulator else { return }
        let routes = self
        router.get("/emulator/action") { request, _ in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            return await routes.emulatorAction(query, link: request.uri.description)
        }
    }

    private func emulatorAction(_ query: [String: String], link: String) async -> Response {
        guard let code = query["oobCode"], !code.isEmpty else {
            return emulatorAnswer(error: "missing oobCode query parameter", "Add the code to the link: …&oobCode=YOUR_OOB_CODE")
        }
        let continueURL = query["continueUrl"].flatMap { $0.isEmpty ? nil : $0 }
        let mode = query["mode"] ?? ""
        if mode == EmailActionKind.emailSignIn.mode {
            guard let continueURL, var target = URLComponents(string: continueURL), target.scheme != nil else {
                return emulatorAnswer(error: "missing continueUrl query parameter", "Add where the app signs in: …&continueUrl=YOUR_APP_URL")
            }
            var items = (target.queryItems ?? []).filter { query[$0.name] == nil }
            for (name, value) in query.sorted(by: { $0.key < $1.key }) where name != "continueUrl" {
                items.append(URLQueryItem(name: name, value: value))
            }
            target.queryItems = items
            return Self.redirect(to: target.string ?? continueURL)
        }
        guard let kind = EmailActionKind.allCases.first(where: { $0.mode == mode }) else {
            return emulatorAnswer(
                error: "Invalid mode", "The link's mode must be resetPassword, verifyEmail, verifyAndChangeEmail, recoverEmail or signIn.")
        }
        let info: ActionCodeInfo
        do {
            info = try await service.checkActionCode(code)
        } catch {
            return emulatorAnswer(error: "This link has expired or was used already.", "Ask for a new one: \(error.message)")
        }
        guard info.kind == kind else {
            return emulatorAnswer(error: "The link's mode does not match its code.", "Follow the link as it was sent.")
        }
        do {
            switch kind {
            case .passwordReset:
                guard let newPassword = query["newPassword"], !newPassword.isEmpty, newPassword != Self.newPasswordPlaceholder else {
                    return json(
                        Wire.EmulatorAction(
                            error: "missing newPassword query parameter",
                            instructions: "To set the password of \(info.email), open the link with a new password added to it.",
                            urlTemplate: link + "&newPassword=" + Self.newPasswordPlaceholder), status: .badRequest)
                }
                try await service.confirmPasswordReset(withCode: code, newPassword: newPassword)
                if let continueURL { return Self.redirect(to: continueURL) }
                return json(Wire.EmulatorAction(success: "The password has been successfully updated.", email: info.email))
            case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
                try await service.applyActionCode(code)
                if let continueURL, kind != .recoverEmail { return Self.redirect(to: continueURL) }
                let done =
                    switch kind {
                    case .verifyEmail: "The email has been successfully verified."
                    case .verifyAndChangeEmail: "The email has been successfully changed."
                    default: "The email has been successfully reset."
                    }
                return json(Wire.EmulatorAction(success: done, email: info.emailAfterApplying, isNewAddress: kind == .verifyAndChangeEmail))
            case .emailSignIn:
                return emulatorAnswer(error: "Invalid mode", "A sign-in link's mode is signIn.")
            }
        } catch {
            return emulatorAnswer(error: error.message, "Fix what the error says, or ask for a new link.")
        }
    }

    /// The placeholder the emulator's answer puts where the new password goes.
    private static let newPasswordPlaceholder = "NEW_PASSWORD_HERE"

    private func emulatorAnswer(error: String, _ instructions: String) -> Response {
        json(Wire.EmulatorAction(error: error, instructions: instructions), status: .badRequest)
    }

    private static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

extension Wire {
    /// What `GET /emulator/action` answers, as the emulator does: `{"authEmulator":{…}}`.
    struct EmulatorAction: Encodable {
        struct Body: Encodable {
            var success: String?
            var error: String?
            var instructions: String?
            var urlTemplate: String?
            var email: String?
            var newEmail: String?
        }

        var authEmulator: Body

        /// A success naming the account's address; `isNewAddress` names it `newEmail`, as the
        /// emulator does after a change of address.
        init(success: String, email: String, isNewAddress: Bool = false) {
            authEmulator = isNewAddress ? Body(success: success, newEmail: email) : Body(success: success, email: email)
        }

        init(error: String, instructions: String, urlTemplate: String? = nil) {
            authEmulator = Body(error: error, instructions: instructions, urlTemplate: urlTemplate)
        }
    }
}
