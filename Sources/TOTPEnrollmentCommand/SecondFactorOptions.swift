internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication

/// How the second step of a sign-in is answered, shared by `signin` and `recovery-codes
/// --generate`: a code of a TOTP or phone factor (asked for, or `--code`) or, instead, one of the
/// user's recovery codes.
struct SecondFactorOptions: ParsableArguments {
    @Option(help: "The enrollment id of the factor to use (default: the only one; among several, asked for, or the first with --code).")
    var factor: String?

    @Option(help: "The code, instead of asking for it (one attempt).")
    var code: String?

    @Option(
        name: .customLong("recovery-code"),
        help: ArgumentHelp("One of the user's recovery codes, instead of a TOTP code (each works once).", valueName: "code"))
    var recoveryCode: String?

    /// Whether any of these options was given (`recovery-codes` without `--generate` takes none).
    var isEmpty: Bool { factor == nil && code == nil && recoveryCode == nil }

    func validate() throws {
        // A recovery code stands for the whole second factor: there is no factor to pick and no
        // TOTP code to ask for, so a combination would leave one of the two silently unused.
        guard recoveryCode != nil else { return }
        if code != nil { throw ValidationError("--code and --recovery-code are alternatives: pass one") }
        if factor != nil { throw ValidationError("--factor picks a TOTP factor: drop it with --recovery-code") }
    }

    /// Signs `identity` in through ``SignInFlow``. Returns `nil` as the second factor when the
    /// user has none.
    func signIn(_ service: MultiFactorService, _ identity: FirstFactorIdentity) async throws(CommandFailure) -> (
        user: User, secondFactor: MultiFactorInfo?
    ) {
        try await SignInFlow.signIn(service, identity, factor: factor, code: code, recoveryCode: recoveryCode)
    }

    /// Signs in with `firstFactor` through ``SignInFlow``; `name` stands for the user in prompts.
    func signIn(as name: String, _ firstFactor: () async throws(AuthError) -> User) async throws(CommandFailure) -> (
        user: User, secondFactor: MultiFactorInfo?
    ) {
        try await SignInFlow.signIn(as: name, factor: factor, code: code, recoveryCode: recoveryCode, firstFactor: firstFactor)
    }
}
