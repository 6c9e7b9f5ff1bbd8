internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication

/// How the emails of email actions leave `otpkit-server`: through an SMTP server (`--smtp-url`),
/// into the log (`--mail-log`, development only), or under `--emulator` into the outbox the
/// emulator lists; with none of these, actions that send an email are `OPERATION_NOT_ALLOWED`
/// and an administrator's links still work.
struct MailSettings: Sendable {
    enum Delivery: Sendable, Equatable {
        case smtp(url: String, user: String?, password: String?, certificateAuthorityFile: String?, from: String)
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
        guard [layer.smtpURL != nil, mailLog, emulator].filter({ $0 }).count <= 1 else {
            throw ValidationError("--smtp-url, --mail-log and --emulator (which lists the emails) are alternatives: pass one")
        }
        guard let url = layer.smtpURL else {
            if layer.smtpUser != nil || layer.smtpPasswordFile != nil || layer.smtpCAFile != nil || layer.mailFrom != nil {
                throw ValidationError("--smtp-user, --smtp-password-file, --smtp-ca-file and --mail-from configure --smtp-url: pass it too")
            }
            delivery = mailLog ? .log : emulator ? .emulatorOutbox : .none
            return
        }
        guard let from = layer.mailFrom, !from.isEmpty else {
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
