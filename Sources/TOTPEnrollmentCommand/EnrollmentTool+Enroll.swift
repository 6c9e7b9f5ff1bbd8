internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPQR
internal import OTPCore

extension EnrollmentTool {
    /// `totp enroll`: Firebase's enrollment flow at a terminal.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enroll a TOTP second factor (show a QR code, ask for the first code, finalize), or a phone with --phone.",
            discussion: """
                When the user already has a second factor, its code is asked first (a new factor \
                needs a full sign-in). At most 5 factors per user.

                --phone NUMBER sends a code to the number by text message, through the one --sms-… \
                sender given (none is needed for a --test-phone-number), asks for it and enrolls the \
                number.
                """
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: "The user's id.")
        var user: String

        @Option(help: "The user's email address, taken as verified; the account name in the authenticator app.")
        var email: String

        @Option(help: "The issuer the authenticator app shows.")
        var issuer = "OTPKit"

        @Option(name: .customLong("name"), help: "A display name for the factor.")
        var displayName: String?

        @Option(
            help: ArgumentHelp(
                "How to draw the QR code: utf8 (half blocks), utf8-inverted (for light text on a dark background), ansi (colours), ascii or none.",
                valueName: "format"))
        var qr: QRStyle = .utf8

        @Option(
            help: ArgumentHelp(
                "Enroll this phone number instead of an authenticator app: international form, or national with --phone-region.",
                valueName: "number"))
        var phone: String?

        @Option(help: "With --phone: the code of the text message, instead of asking for it (one attempt).")
        var code: String?

        @OptionGroup(title: "SMS sender (phone factors)") var smsOptions: SMSOptions

        func validate() throws {
            // A TOTP enrollment asks for its first code after showing the key: there is nothing to
            // take it from beforehand.
            if code != nil, phone == nil { throw ValidationError("--code is the code of the text message: it goes with --phone") }
            // Checked before anything is asked, rather than after the person typed their current
            // factor's code.
            if let phone, !smsOptions.hasSender, !smsOptions.isTestNumber(phone) {
                throw ValidationError(SMSOptions.missingSender)
            }
        }

        func run() async throws {
            try await storeOptions.withService(sms: smsOptions) { _, service throws(CommandFailure) in
                let identity = FirstFactorIdentity(userID: user, email: email, isEmailVerified: true, provider: .password)
                let (signedIn, _) = try await SignInFlow.signIn(service, identity, factor: nil, code: nil)
                if let phone {
                    try await enrollPhone(signedIn, number: phone)
                    return
                }
                let secret: TOTPSecret
                do throws(AuthError) {
                    secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await signedIn.multiFactor.session())
                } catch {
                    throw CommandFailure(error)
                }
                let url = secret.generateQRCodeURL(withAccountName: email, issuer: issuer)
                StandardStreams.writeOutput(try drawing(url) + Self.instructions(secret, url: url, email: email, issuer: issuer))
                try await finalize(signedIn, secret: secret)
            }
        }

        /// The QR code of `url` in the requested style; nothing to encode for `none`.
        private func drawing(_ url: String) throws(CommandFailure) -> String {
            guard qr != .none else { return "" }
            do {
                return qr.render(try QRCode(encoding: url))
            } catch {
                throw CommandFailure(error, context: "cannot draw the QR code")
            }
        }

        private func finalize(_ user: User, secret: TOTPSecret) async throws(CommandFailure) {
            for attempt in 1...SignInFlow.attempts {
                guard let code = Prompt.askForCode("Code from your authenticator app: ") else {
                    throw .refused("no code entered: nothing was enrolled")
                }
                if code.isEmpty { continue }
                let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code)
                do {
                    try await user.multiFactor.enroll(with: assertion, displayName: displayName)
                } catch  where error.code == .invalidVerificationCode && attempt < SignInFlow.attempts {
                    StandardStreams.writeError("\(error.message)\n")
                    continue
                } catch {
                    throw CommandFailure(error)
                }
                let factor = user.multiFactor.enrolledFactors.last
                let keyOption = storeOptions.keyFile.map { " --key-file \($0)" } ?? ""
                StandardStreams.writeOutput(
                    """
                    Enrolled a TOTP second factor for \(self.user) (enrollment id \(factor?.uid ?? "?")).
                    Once the app shows a new code, sign in with: totp signin --db \(storeOptions.location.shownArgument) --user \(self.user)\(keyOption)

                    """)
                return
            }
            throw .refused("no valid code after \(SignInFlow.attempts) attempts: nothing was enrolled")
        }

        static func instructions(_ secret: TOTPSecret, url: String, email: String, issuer: String) -> String {
            let key = secret.sharedSecretKey()
            let grouped = stride(from: 0, to: key.count, by: 4).map { offset in
                let start = key.index(key.startIndex, offsetBy: offset)
                return String(key[start..<(key.index(start, offsetBy: 4, limitedBy: key.endIndex) ?? key.endIndex)])
            }.joined(separator: " ")
            return """
                Scan the QR code with your authenticator app, or add the key by hand:
                  Key:     \(grouped)
                  Account: \(email) (issuer \(issuer); \(secret.hashingAlgorithm), \(secret.codeLength) digits, every \(secret.codeIntervalSeconds) s)
                  URI:     \(url)
                Enter the first code before the enrollment expires in \(secret.enrollmentCompletionDeadlineTime - TOTP.currentUnixTime()) s.

                """
        }
    }
}
