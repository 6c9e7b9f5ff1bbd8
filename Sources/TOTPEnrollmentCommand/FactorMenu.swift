internal import OTPCommandSupport
internal import OTPAuthentication

/// The question a sign-in asks when the user has several second factors and none was picked on
/// the command line: a numbered list on standard error, answered by number or enrollment id.
enum FactorMenu {
    /// Lists `hints` and asks which one to use, until an answer names one.
    static func choose(from hints: [MultiFactorInfo], user: String) throws(CommandFailure) -> MultiFactorInfo {
        StandardStreams.writeError("\(user) has \(hints.count) second factors:\n" + hints.enumerated().map { line($1, index: $0 + 1) }.joined())
        for _ in 1...SignInFlow.attempts {
            guard let answer = Prompt.askForCode("Which one? [1-\(hints.count)]: ") else {
                throw .refused("no factor chosen: run the command again, or pick one with --factor ID")
            }
            if let index = Int(answer), hints.indices.contains(index - 1) { return hints[index - 1] }
            if let hint = hints.first(where: { $0.uid == answer }) { return hint }
            StandardStreams.writeError("Enter a number from 1 to \(hints.count), or an enrollment id.\n")
        }
        throw .refused("no factor chosen after \(SignInFlow.attempts) answers: pick one with --factor ID")
    }

    /// `  2. phone  Work phone  +1******0123  enrollment id …`: what tells the factors apart, with
    /// a phone's number masked as in the service's hints.
    static func line(_ hint: MultiFactorInfo, index: Int) -> String {
        let fields = [kind(hint), hint.displayName ?? "-", hint.phoneNumber, "enrollment id \(hint.uid)"].compactMap { $0 }
        return "  \(index). " + fields.joined(separator: "  ") + "\n"
    }

    /// The factor kind as a person calls it.
    static func kind(_ hint: MultiFactorInfo) -> String {
        switch hint.kind {
        case .totp: "TOTP"
        case .phone: "phone"
        case .recoveryCode: "recovery code"
        case .webauthn: "passkey"
        case nil: hint.factorID
        }
    }
}
