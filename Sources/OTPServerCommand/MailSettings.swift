internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication

/// How the emails of email actions leave `otpkit-server`: through an SMTP server (`--smtp-url`),
/// a program with the sendmail interface (`--mail-command`), a webhook (`--mail-webhook`), into
/// the log (`--mail-log`, development only), or under `--emulator` into the outbox the emulator
/// lists; with none of these, actions that send an email are `OPERATION_NOT_ALLOWED` and an
/// administrator's links still work.
struct MailSettings: Sendable {
    enum Delivery: Sendable, Equatable {
        case smtp(url: String, user: String?, password: String?, certificateAuthorityFile: String?, from: String)
        case command(executable: String, arguments: [String], passedEnvironment: [String], from: String)
        case webhook(url: String, from: String?)
        case log
        case emulatorOutbox
        case none
    }

    var delivery: Delivery
    /// `--email-action-url`, when given.
    var actionURL: String?
    /// `--app-name`, when given.
    var appName: String?
    /// `--mail-template`s, read: the messages replacing the standard ones.
    var templates: [EmailActionKind: EmailTemplate]

    /// The mail settings of `layer`, the password file read.
    ///
    /// - Throws: `ValidationError` for settings that cannot work together or a password file that
    ///   cannot be read, naming the option and what to do.
    init(_ layer: ServerSettingsLayer, emulator: Bool) throws(ValidationError) {
        actionURL = layer.emailActionURL
        appName = layer.appName
        var templates: [EmailActionKind: EmailTemplate] = [:]
        for argument in layer.mailTemplates ?? [] {
            let (kind, template) = try MailTemplateOption.read(argument)
            guard templates.updateValue(template, forKey: kind) == nil else {
                throw ValidationError("--mail-template \(kind.rawValue) is given twice: give one file for each kind")
            }
        }
        self.templates = templates
        if let actionURL {
            do {
                try MultiFactorConfiguration(emailActions: EmailActionSettings(actionURL: actionURL)).validate()
            } catch {
                throw ValidationError("--email-action-url: \(error)")
            }
        }
        let mailLog = layer.mailLog ?? false
        let senders = [layer.smtpURL != nil, layer.mailCommand != nil, layer.mailWebhook != nil, mailLog, emulator]
        guard senders.filter({ $0 }).count <= 1 else {
            throw ValidationError(
                "--smtp-url, --mail-command, --mail-webhook, --mail-log and --emulator (which lists the emails) are alternatives: pass one")
        }
        if layer.smtpURL == nil, layer.smtpUser != nil || layer.smtpPasswordFile != nil || layer.smtpCAFile != nil {
            throw ValidationError("--smtp-user, --smtp-password-file and --smtp-ca-file configure --smtp-url: pass it too")
        }
        if layer.mailCommand == nil, layer.mailArguments != nil || layer.mailEnvironment != nil {
            throw ValidationError("--mail-arg and --mail-env configure --mail-command: pass it too")
        }
        let from = layer.mailFrom.flatMap { $0.isEmpty ? nil : $0 }
        if let command = layer.mailCommand {
            guard let from else { throw ValidationError("--mail-command needs --mail-from ADDRESS, the address emails are sent from") }
            delivery = .command(
                executable: command, arguments: layer.mailArguments ?? ["{to}"], passedEnvironment: layer.mailEnvironment ?? [], from: from)
            return
        }
        if let webhook = layer.mailWebhook {
            delivery = .webhook(url: webhook, from: from)
            return
        }
        guard let url = layer.smtpURL else {
            if layer.mailFrom != nil {
                throw ValidationError("--mail-from configures --smtp-url, --mail-command or --mail-webhook: pass one of them too")
            }
            delivery = mailLog ? .log : emulator ? .emulatorOutbox : .none
            return
        }
        guard let from else {
            throw ValidationError("--smtp-url needs --mail-from ADDRESS, the address emails are sent from")
        }
        guard (layer.smtpUser == nil) == (layer.smtpPasswordFile == nil) else {
            throw ValidationError("give --smtp-user and --smtp-password-file together, or neither")
        }
        var password: String?
        if let file = layer.smtpPasswordFile {
            do {
                let text = String(decoding: try OperatorFile.contents(file), as: UTF8.self)
                password = text.trimmingCharacters(in: .newlines)
            } catch {
                throw ValidationError("cannot read --smtp-password-file \(file): \(error.reason)")
            }
            guard password?.isEmpty == false else { throw ValidationError("--smtp-password-file \(file) is empty: write the password into it") }
        }
        delivery = .smtp(url: url, user: layer.smtpUser, password: password, certificateAuthorityFile: layer.smtpCAFile, from: from)
    }
}
