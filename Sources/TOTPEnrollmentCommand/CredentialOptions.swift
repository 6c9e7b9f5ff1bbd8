internal import ArgumentParser
internal import Foundation
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPFederation
internal import OTPVault

/// A first-factor credential on the command line: an email address with its password (asked for
/// without echo, or read from a file or standard input), or a federated provider's ID token with
/// what checks it (issuer, audience, published keys).
struct CredentialOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The email address of a password credential.", valueName: "address"))
    var email: String?

    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp(
            "Read the password from the first line of FILE (- for standard input) instead of asking for it without echo.",
            valueName: "file"))
    var passwordFile: String?

    @Option(help: ArgumentHelp("A federated provider (google.com, oidc.…) whose ID token is the credential.", valueName: "id"))
    var provider: String?

    @Option(name: .customLong("id-token-file"), help: ArgumentHelp("The provider's ID token, a JWT (- for standard input).", valueName: "file"))
    var idTokenFile: String?

    @Option(name: .customLong("audience"), help: ArgumentHelp("A client id the token must be issued to (repeatable).", valueName: "id"))
    var audiences: [String] = []

    @Option(
        name: .customLong("issuer"),
        help: ArgumentHelp("An issuer the token may name (repeatable; google.com: Google's by default).", valueName: "url"))
    var issuers: [String] = []

    @Option(
        name: .customLong("jwks"),
        help: ArgumentHelp("The provider's keys: an https URL or a JWKS file (google.com: Google's by default).", valueName: "url-or-file"))
    var keySet: String?

    /// The longest ID token read; real ones are a few kilobytes.
    static let maximumTokenBytes = 64 * 1024

    func validate() throws {
        switch (email, provider) {
        case (nil, nil):
            throw ValidationError("no credential: give --email ADDRESS (and its password) or --provider ID --id-token-file FILE")
        case (.some, .some):
            throw ValidationError("--email and --provider are alternatives: give one credential")
        case (.some, nil):
            let federated = [
                idTokenFile.map { _ in "--id-token-file" }, audiences.first.map { _ in "--audience" },
                issuers.first.map { _ in "--issuer" }, keySet.map { _ in "--jwks" },
            ].compactMap { $0 }
            if let option = federated.first { throw ValidationError("\(option) goes with --provider, not with --email") }
        case (nil, .some(let provider)):
            if passwordFile != nil { throw ValidationError("--password-file goes with --email, not with --provider") }
            if idTokenFile == nil { throw ValidationError("--provider needs --id-token-file FILE, the provider's ID token") }
            if audiences.isEmpty { throw ValidationError("--provider needs --audience ID, the client id its tokens are issued to") }
            if provider != GoogleAuthProvider.id, issuers.isEmpty || keySet == nil {
                throw ValidationError("--provider \(provider) needs --issuer URL and --jwks URL-or-FILE (only google.com has defaults)")
            }
        }
    }

    /// The service's `identityProviders`: the verifier of the provider's tokens, none for a password.
    func identityProviders() throws(CommandFailure) -> [any IdentityTokenVerifier] {
        try verifier().map { [$0] } ?? []
    }

    private func verifier() throws(CommandFailure) -> OpenIDTokenVerifier? {
        guard let provider else { return nil }
        do {
            // Google's issuers and keys are known; any other provider names its own (validate()).
            let google = provider == GoogleAuthProvider.id ? try OpenIDProviderSettings.google(clientIDs: audiences) : nil
            let settings = try OpenIDProviderSettings(
                providerID: provider,
                issuers: issuers.isEmpty ? google?.issuers ?? [] : Set(issuers),
                audiences: audiences,
                keySource: keySet.map { $0.contains("://") ? .url($0) : .file($0) } ?? google?.keySource ?? .file(""))
            return OpenIDTokenVerifier(settings: settings)
        } catch {
            throw .usage("--provider \(provider): \(error)")
        }
    }

    /// The credential: the password is read now (asked twice when `confirming` a new one).
    func credential(confirmingPassword confirming: Bool) throws(CommandFailure) -> AuthCredential {
        if let email {
            return EmailAuthProvider.credential(withEmail: email, password: try Self.password(file: passwordFile, confirming: confirming))
        }
        return OAuthProvider.credential(providerID: provider ?? "", idToken: try idToken())
    }

    /// A password from `file` (`-`: standard input) or the terminal, without echo.
    static func password(file: String?, confirming: Bool) throws(CommandFailure) -> String {
        let secret: VaultPassphrase
        do {
            switch file {
            case "-": secret = try PassphraseReader.read(descriptor: STDIN_FILENO, noun: "password")
            case let path?: secret = try PassphraseReader.read(path: path)
            case nil: secret = try PassphraseReader.prompt("Password: ", repeat: confirming ? "Repeat the password: " : nil, noun: "password")
            }
        } catch {
            guard case .passphraseUnavailable(let reason) = error else { throw CommandFailure(error) }
            throw .usage("no password: \(reason)")
        }
        guard let password = secret.storage.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
            throw .dataError("the password is not UTF-8 text")
        }
        return password
    }

    private func idToken() throws(CommandFailure) -> String {
        let source = idTokenFile == "-" ? "standard input" : "the ID token file \(idTokenFile ?? "")"
        let data: Data
        do {
            if idTokenFile == "-" {
                data = try FileHandle.standardInput.read(upToCount: Self.maximumTokenBytes + 1) ?? Data()
            } else {
                data = try Data(contentsOf: URL(fileURLWithPath: idTokenFile ?? ""))
            }
        } catch {
            throw .noInput("cannot read \(source): \((error as NSError).localizedDescription)")
        }
        guard data.count <= Self.maximumTokenBytes else { throw .dataError("\(source) is longer than an ID token can be") }
        guard let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw .dataError("\(source) holds no ID token: give the JWT the provider issued")
        }
        return text
    }
}
