import Foundation
import FuzzSupport
import Logging
import OTPFederation

/// libFuzzer entry point: a provider's key set (JWKS) and an ID token through
/// `OpenIDTokenVerifier`, as `accounts:signInWithIdp` checks Google's, Apple's or any OpenID
/// provider's tokens. An input is `KEY SET \0 TOKEN`; the key set is read as the verifier reads a
/// `JWKSSource.file`, the token checked at a fixed time against fixed settings (Corpus/identitytokens' seeds, made by
/// make-identity-token-seeds.py, match them).
///
/// A token accepted must carry the settings' issuer and audience; a refusal must say why.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentityTokens(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let separator = input.firstIndex(of: 0) else { return 0 }
    let keySet = Data(input[..<separator])
    let token = String(decoding: input[(separator + 1)...], as: UTF8.self)
    Verifier.shared.check(keySet: keySet, token: token)
    return 0
}

/// A verifier per input over a key file that each input replaces: one verifier for the whole run
/// would carry what earlier inputs left (a key set that failed to load is not read again for a
/// while, and the clock here stands still), so that a crash would depend on the inputs before it.
final class Verifier: Sendable {
    static let shared = Verifier()
    static let now: Double = 1_800_000_000
    let path: String
    let settings: OpenIDProviderSettings

    private init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-jwks-\(getpid()).json").path
        do {
            settings = try OpenIDProviderSettings(
                providerID: "oidc.fuzz", issuers: ["https://issuer.example"], audiences: ["fuzz-client"], keySource: .file(path),
                allowedAlgorithms: OpenIDProviderSettings.supportedAlgorithms)
        } catch {
            fatalError("the fuzz target's settings are refused: \(error)")
        }
    }

    func check(keySet: Data, token: String) {
        guard FileManager.default.createFile(atPath: path, contents: keySet) else { fatalError("could not write the key file \(path)") }
        let verifier = OpenIDTokenVerifier(
            settings: settings, logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() }), clock: { Self.now })
        runBlocking {
            do {
                let identity = try await verifier.verify(idToken: token, nonce: "n-0S6_WzA2Mj")
                FuzzSupport.check(!identity.subject.isEmpty, "a token was accepted without a subject")
            } catch {
                FuzzSupport.check(!"\(error)".isEmpty, "a refusal without a reason")
            }
        }
    }
}
