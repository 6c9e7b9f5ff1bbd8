import Foundation
import OTPAuthentication
import OTPTestUtilities
import Testing

/// Firebase's modified scrypt against the known values published with firebase/scrypt (its
/// README and its tests), and the console's hash_config text.
@Suite("Firebase's scrypt")
struct FirebaseHashConfigTests {
    static let signerKey = FirebaseHashConfigExample.signerKey
    static let consoleText = FirebaseHashConfigExample.consoleText

    @Test(arguments: [
        (
            "user1password", "42xEC+ixf3L2lw==", signerKey,
            "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
        ),
        ("hunter2", "42xEC+ixf3L2lw==", signerKey, "70k8Vg5B3/OrvJOiqusnasv0dLcBHoDAqJrJr7TRLBfMw4MitWx51YXJYFdGiyMbMeKtWtLf5HiBDcN0SUOm4A=="),
        (
            "two space password", "GGc/eCzFj6DM0g==", "NkZlKPkYEFfnbh1nYTfLsbqQnQ6jyRV4itK7iUD+hjO96tsAYhBG40BVS3AuJyiwHinqc5RR3oA+lppOXPNRmw==",
            "5RZZm9Jz7p/u+FGXMInlJtAYFmMBj6ioL1UOdWfsUknAFCnsPpnnKRLyXSUFwwKbM4lx7TdFclBsT16Z8uuumg=="
        ),
    ])
    func knownValues(_ password: String, _ salt: String, _ key: String, _ expected: String) throws {
        let config = try FirebaseHashConfig(
            signerKey: Array(try #require(Data(base64Encoded: key))), saltSeparator: [0x07], rounds: 8, memoryCost: 14)
        let hash = try config.hash(password, salt: Array(try #require(Data(base64Encoded: salt))))
        #expect(Data(hash).base64EncodedString() == expected)
    }

    @Test("the console's hash_config reads as its parts, and what is missing is named")
    func consoleText() throws {
        let config = try FirebaseHashConfig(parsing: Self.consoleText)
        #expect(Data(config.signerKey).base64EncodedString() == Self.signerKey)
        #expect(config.saltSeparator == [0x07])
        #expect(config.rounds == 8)
        #expect(config.memoryCost == 14)
        #expect(config.keyID.count == 16)
        #expect(throws: PasswordHashError.invalidFirebaseHashConfig("mem_cost 15: Firebase's are 1 to 14")) {
            try FirebaseHashConfig(parsing: Self.consoleText.replacingOccurrences(of: "mem_cost: 14", with: "mem_cost: 15"))
        }
        #expect {
            try FirebaseHashConfig(parsing: Self.consoleText.replacingOccurrences(of: "algorithm: SCRYPT,", with: ""))
        } throws: { error in
            "\(error)".contains("algorithm: SCRYPT")
        }
    }
}
