internal import ArgumentParser
internal import OTPAuthentication

/// One `--mail-template` value, `KIND=FILE`: the message of one kind of email action (Firebase's
/// `requestType`: `PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN`, `VERIFY_AND_CHANGE_EMAIL`,
/// `RECOVER_EMAIL`) in
/// the text `EmailTemplate(parsing:)` reads, read once at start.
enum MailTemplateOption {
    static let valueHelp = "PASSWORD_RESET=FILE"

    static func read(_ argument: String) throws(ValidationError) -> (EmailActionKind, EmailTemplate) {
        let kinds = EmailActionKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let (kind, path, text) = try OperatorFile.named(argument, option: "--mail-template", name: { EmailActionKind(rawValue: String($0)) })
        else {
            throw ValidationError("--mail-template takes \(kinds), then =FILE")
        }
        do {
            return (kind, try EmailTemplate(parsing: text))
        } catch {
            throw ValidationError("--mail-template \(path): \(error)")
        }
    }
}
