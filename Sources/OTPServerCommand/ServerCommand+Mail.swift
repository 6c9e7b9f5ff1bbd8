internal import Logging
internal import OTPAuthentication
internal import OTPMail
internal import OTPServer

extension ServerCommand {
    /// The email sender and the email-action settings of a run: links to `--email-action-url`, by
    /// default Firebase's own handler of the project (what a project moving from Firebase already
    /// links to), or under `--emulator` this server's `/emulator/action`, as the emulator's links go.
    struct MailDelivery {
        var settings: EmailActionSettings
        var sender: (any EmailSender)?
        var outbox: EmulatorMailOutbox?
    }

    func mailDelivery(_ settings: ServerSettings, logger: Logger) throws -> MailDelivery {
        let mail = settings.mail
        let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        let actionURL =
            mail.actionURL
            ?? (settings.emulator
                ? "http://\(host):\(settings.port == 0 ? 9099 : settings.port)/emulator/action"
                : "https://\(settings.projectID).firebaseapp.com/__/auth/action")
        let emailSettings = EmailActionSettings(
            actionURL: actionURL, apiKey: settings.emulator ? "fake-api-key" : settings.apiKeys.first, appName: mail.appName ?? settings.projectID,
            templates: mail.templates)
        switch mail.delivery {
        case .smtp(let url, let user, let password, let caFile, let from):
            do {
                let sender = try SMTPEmailSender(
                    url: url, username: user, password: password, from: from, fromName: emailSettings.appName, certificateAuthorityFile: caFile)
                return MailDelivery(settings: emailSettings, sender: sender)
            } catch {
                throw ServerFailure("--smtp-url: \(error)")
            }
        case .command(let executable, let arguments, let passedEnvironment, let from):
            do {
                let sender = try CommandEmailSender(
                    executable: executable, arguments: arguments.map(CommandEmailSender.Argument.init(template:)), from: from,
                    fromName: emailSettings.appName, passedEnvironment: passedEnvironment, logger: logger)
                return MailDelivery(settings: emailSettings, sender: sender)
            } catch {
                throw ServerFailure("--mail-command: \(error)")
            }
        case .webhook(let url, let from):
            do {
                let sender = try WebhookEmailSender(url: url, from: from, logger: logger)
                return MailDelivery(settings: emailSettings, sender: sender)
            } catch {
                throw ServerFailure("--mail-webhook: \(error)")
            }
        case .log:
            logger.warning(
                "--mail-log writes every email's link to the log, where anyone who reads it can reset passwords: never serve real users this way")
            return MailDelivery(settings: emailSettings, sender: LogEmailSender(logger: logger))
        case .emulatorOutbox:
            let outbox = EmulatorMailOutbox()
            return MailDelivery(settings: emailSettings, sender: outbox, outbox: outbox)
        case .none:
            return MailDelivery(settings: emailSettings)
        }
    }
}
