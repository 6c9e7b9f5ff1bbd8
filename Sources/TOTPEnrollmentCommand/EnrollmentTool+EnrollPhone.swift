internal import OTPCommandSupport
internal import OTPAuthentication

extension EnrollmentTool.Enroll {
    /// Firebase's phone enrollment at a terminal: send a code to `number`, ask for it, enroll.
    func enrollPhone(_ user: User, number: String) async throws(CommandFailure) {
        let provider = PhoneAuthProvider.provider()
        let verificationID: String
        do {
            verificationID = try await provider.verifyPhoneNumber(number, multiFactorSession: try await user.multiFactor.session())
        } catch {
            throw CommandFailure(error)
        }
        if code == nil { StandardStreams.writeError("Sent a code to \(number).\n") }
        for attempt in 1...(code == nil ? SignInFlow.attempts : 1) {
            guard let typed = code ?? Prompt.askForCode("Code from the text message: ") else {
                throw .refused("no code entered: nothing was enrolled")
            }
            if typed.isEmpty, code == nil { continue }
            let credential = provider.credential(withVerificationID: verificationID, verificationCode: typed)
            do {
                try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: displayName)
            } catch  where error.code == .invalidVerificationCode && code == nil && attempt < SignInFlow.attempts {
                StandardStreams.writeError("\(error.message)\n")
                continue
            } catch {
                throw CommandFailure(error)
            }
            // The owner's own list holds the whole number, as the service normalized it (E.164).
            let factor = user.multiFactor.enrolledFactors.last
            let keyOption = storeOptions.keyFile.map { " --key-file \($0)" } ?? ""
            StandardStreams.writeOutput(
                """
                Enrolled a phone second factor for \(self.user): \(factor?.phoneNumber ?? number) (enrollment id \(factor?.uid ?? "?")).
                Sign in with: totp signin --db \(storeOptions.location.shownArgument) --user \(self.user)\(keyOption) and the SMS options given here

                """)
            return
        }
        throw .refused("no valid code after \(SignInFlow.attempts) attempts: nothing was enrolled")
    }
}
