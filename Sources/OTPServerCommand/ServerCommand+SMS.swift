internal import Logging
internal import OTPEnrollment
internal import OTPServer
internal import OTPSMS

extension ServerCommand {
    /// How phone factors' codes leave the server: none under `--emulator` (the outbox lists them),
    /// through `--sms-command` or `--sms-webhook` otherwise; with neither, phone factors are off
    /// and their requests answer `OPERATION_NOT_ALLOWED`.
    struct PhoneDelivery {
        var settings = PhoneSettings()
        var sender: (any SMSSender)?
        var outbox: EmulatorSMSOutbox?
        var shutdown: @Sendable () async -> Void = {}
    }

    func phoneDelivery(logger: Logger) throws -> PhoneDelivery {
        if emulator {
            let outbox = EmulatorSMSOutbox()
            // The text is the code alone, which the outbox lists as the emulator does.
            return PhoneDelivery(settings: PhoneSettings(isEnabled: true, messageTemplate: "{code}"), sender: outbox, outbox: outbox)
        }
        do {
            if let smsCommand {
                let sender = try CommandSMSSender(executable: smsCommand, arguments: [.phoneNumber, .text], logger: logger)
                return PhoneDelivery(settings: PhoneSettings(isEnabled: true), sender: sender)
            }
            if let smsWebhook {
                let sender = try WebhookSMSSender(url: smsWebhook, logger: logger)
                return PhoneDelivery(settings: PhoneSettings(isEnabled: true), sender: sender) { try? await sender.shutdown() }
            }
        } catch {
            throw ServerFailure(error.description)
        }
        return PhoneDelivery()
    }
}
