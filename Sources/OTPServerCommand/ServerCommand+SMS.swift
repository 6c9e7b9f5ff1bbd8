internal import Logging
internal import OTPAuthentication
internal import OTPServer
internal import OTPSMS

extension ServerCommand {
    /// How phone factors' codes leave the server: none under `--emulator` (the outbox lists them),
    /// through `--sms-command` or `--sms-webhook` otherwise; with neither, phone factors work only
    /// for the `--test-phone-number`s, and are off without them (`OPERATION_NOT_ALLOWED`). Test
    /// numbers' codes are fixed and never sent, whatever the sender.
    struct PhoneDelivery {
        var settings = PhoneSettings()
        var sender: (any SMSSender)?
        var outbox: EmulatorSMSOutbox?
    }

    func phoneDelivery(_ settings: ServerSettings, logger: Logger) throws -> PhoneDelivery {
        var delivery = try sender(settings, logger: logger)
        if !settings.testPhoneNumbers.isEmpty {
            delivery.settings.isEnabled = true
            delivery.settings.testPhoneNumbers = settings.testPhoneNumbers
        }
        return delivery
    }

    private func sender(_ settings: ServerSettings, logger: Logger) throws -> PhoneDelivery {
        if settings.emulator {
            let outbox = EmulatorSMSOutbox()
            // The text is the code alone, which the outbox lists as the emulator does.
            return PhoneDelivery(settings: PhoneSettings(isEnabled: true, messageTemplate: "{code}"), sender: outbox, outbox: outbox)
        }
        do {
            if let smsCommand = settings.smsCommand {
                let sender = try CommandSMSSender(
                    executable: smsCommand, arguments: settings.smsArguments.map(CommandSMSSender.Argument.init(template:)),
                    passedEnvironment: settings.smsEnvironment, logger: logger)
                return PhoneDelivery(settings: PhoneSettings(isEnabled: true), sender: sender)
            }
            if let smsWebhook = settings.smsWebhook {
                let sender = try WebhookSMSSender(url: smsWebhook, logger: logger)
                return PhoneDelivery(settings: PhoneSettings(isEnabled: true), sender: sender)
            }
        } catch {
            throw ServerFailure(error.description)
        }
        return PhoneDelivery()
    }
}
