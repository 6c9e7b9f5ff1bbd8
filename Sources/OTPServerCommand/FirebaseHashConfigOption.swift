internal import ArgumentParser
internal import Foundation
internal import OTPAuthentication

/// One `--firebase-hash-config` value: the file of a Firebase project's password hash parameters,
/// as its console shows them (`hash_config { algorithm: SCRYPT, base64_signer_key: …, … }`), read
/// once at start. Users imported from that project with its hashes sign in with it.
enum FirebaseHashConfigOption {
    static func read(_ path: String) throws(ValidationError) -> FirebaseHashConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError("--firebase-hash-config: cannot read \(path): \((error as NSError).localizedDescription)")
        }
        do {
            return try FirebaseHashConfig(parsing: text)
        } catch {
            throw ValidationError("--firebase-hash-config \(path): \(error)")
        }
    }
}
