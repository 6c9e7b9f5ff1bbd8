internal import ArgumentParser
internal import Foundation
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPSealing

/// The hash options of `firebase auth:import`, under its names: how the password hashes of an
/// import file were made.
struct ImportHashOptions: ParsableArguments {
    @Option(
        name: .customLong("hash-algo"),
        help: ArgumentHelp(
            "How the passwords were hashed: SCRYPT (Firebase's), STANDARD_SCRYPT, BCRYPT, PBKDF_SHA1, PBKDF2_SHA256, MD5, SHA1, SHA256, SHA512 or HMAC_MD5/SHA1/SHA256/SHA512. Without it, accounts are imported without their passwords.",
            valueName: "algorithm"))
    var algorithm: String?

    @Option(
        name: .customLong("hash-key"),
        help: ArgumentHelp(
            "SCRYPT's signer key or HMAC's key, base64 (visible to other users of this machine: prefer --hash-key-file).", valueName: "base64"))
    var key: String?

    @Option(name: .customLong("hash-key-file"), help: ArgumentHelp("Read the --hash-key from FILE.", valueName: "file"))
    var keyFile: String?

    @Option(name: .customLong("salt-separator"), help: ArgumentHelp("SCRYPT's salt separator, base64 (default: none).", valueName: "base64"))
    var saltSeparator: String?

    @Option(help: ArgumentHelp("SCRYPT's rounds (1 to 8), or the rounds of PBKDF2 and the digests.", valueName: "n"))
    var rounds: Int64?

    @Option(name: .customLong("mem-cost"), help: ArgumentHelp("SCRYPT's memory cost (1 to 14), or STANDARD_SCRYPT's N.", valueName: "n"))
    var memoryCost: Int64?

    @Option(help: ArgumentHelp("STANDARD_SCRYPT's parallelization p.", valueName: "n"))
    var parallelization: Int64?

    @Option(name: .customLong("block-size"), help: ArgumentHelp("STANDARD_SCRYPT's block size r.", valueName: "n"))
    var blockSize: Int64?

    @Option(name: .customLong("dk-len"), help: ArgumentHelp("STANDARD_SCRYPT's derived key length in bytes.", valueName: "n"))
    var derivedKeyLength: Int64?

    @Option(
        name: .customLong("hash-input-order"),
        help: ArgumentHelp("What the digests and HMACs hashed first: SALT_FIRST (the default) or PASSWORD_FIRST.", valueName: "order"))
    var inputOrder: String?

    func validate() throws {
        if key != nil, keyFile != nil { throw ValidationError("--hash-key and --hash-key-file are alternatives: give one") }
        if algorithm == nil, [key, keyFile, saltSeparator].contains(where: { $0 != nil }) || rounds != nil || memoryCost != nil {
            throw ValidationError("hash options go with --hash-algo ALGORITHM: name the algorithm the passwords were hashed with")
        }
        if let inputOrder, !["SALT_FIRST", "PASSWORD_FIRST"].contains(inputOrder) {
            throw ValidationError("--hash-input-order is SALT_FIRST or PASSWORD_FIRST, not \(inputOrder)")
        }
    }

    /// The hashing these options name, with the password settings that check the hashes it makes:
    /// a Firebase project's scrypt and an HMAC key are configured from the options themselves.
    func hashing() throws(CommandFailure) -> (FirebaseImportHashing?, PasswordSettings) {
        var parameters = FirebaseImportHashing.Parameters()
        parameters.algorithm = algorithm
        parameters.signerKey = try keyText()
        parameters.saltSeparator = saltSeparator
        parameters.rounds = rounds
        if algorithm == "STANDARD_SCRYPT" { parameters.cpuMemCost = memoryCost } else { parameters.memoryCost = memoryCost }
        parameters.blockSize = blockSize
        parameters.parallelization = parallelization
        parameters.dkLen = derivedKeyLength
        parameters.passwordHashOrder = inputOrder.map { $0 == "PASSWORD_FIRST" ? "PASSWORD_AND_SALT" : "SALT_AND_PASSWORD" }
        var passwords = PasswordSettings()
        do {
            // The decoding FirebaseImportHashing applies to the same values, so that both read one key.
            let key = parameters.signerKey.flatMap(Base64URL.decodeEitherAlphabet)
            switch algorithm {
            case "SCRYPT":
                guard let key, let rounds, let memoryCost else {
                    throw CommandFailure.usage(
                        "SCRYPT needs --hash-key (or --hash-key-file), --rounds and --mem-cost: the project's password hash parameters")
                }
                guard let separator = Base64URL.decodeEitherAlphabet(saltSeparator ?? "") else {
                    throw CommandFailure.usage("--salt-separator must be base64")
                }
                passwords.firebaseHashConfigs = [
                    try FirebaseHashConfig(
                        signerKey: key, saltSeparator: separator, rounds: Int(clamping: rounds), memoryCost: Int(clamping: memoryCost))
                ]
            case let name? where name.hasPrefix("HMAC_"):
                guard let key else { throw CommandFailure.usage("\(name) needs --hash-key (or --hash-key-file), base64") }
                if let function = PasswordHasher.DigestHash(rawValue: name.dropFirst(5).lowercased()) {
                    passwords.hmacImportKeys = [try HMACImportKey(function: function, key: key)]
                }
            default:
                break
            }
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw .usage("\(error)")
        }
        do throws(AdminRequestError) {
            return (try FirebaseImportHashing(parameters, configured: passwords), passwords)
        } catch {
            throw .usage(error.message)
        }
    }

    /// The key, from the option or its file.
    private func keyText() throws(CommandFailure) -> String? {
        guard let keyFile else { return key }
        do {
            return try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .noInput("cannot read the hash key file \(keyFile): \((error as NSError).localizedDescription)")
        }
    }
}
