import Testing

@testable import OTPCore

/// The package-level AES-256-GCM and password KDFs against published vectors, and their failures.
@Suite("Package crypto helpers")
struct PackageCryptoTests {
    static func hex(_ bytes: some Collection<UInt8>) -> String { Hex.encode(bytes) }
    static func bytes(_ hex: String) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: hex.utf8.count / 2)
        _ = result.withUnsafeMutableBytes { Hex.decode(Array(hex.utf8), into: $0) }
        return result
    }
    static func secure(_ value: SecureBytes) -> String { value.withUnsafeBytes { hex($0) } }

    @Test("AES-256-GCM matches the GCM specification's test cases 13 and 14, tag detached")
    func gcmVectors() throws {
        let key = [UInt8](repeating: 0, count: 32)
        let nonce = [UInt8](repeating: 0, count: 12)
        for (plaintext, ciphertext, tag) in [
            ([UInt8](), "", "530f8afbc74536b9a963b4f1c4cb738b"),
            ([UInt8](repeating: 0, count: 16), "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"),
        ] {
            let sealed = try key.withUnsafeBytes { key in
                try nonce.withUnsafeBytes { nonce in try plaintext.withUnsafeBytes { try AESGCM.seal($0, key: key, nonce: nonce) } }
            }
            #expect(Self.hex(sealed.ciphertext) == ciphertext)
            #expect(Self.hex(sealed.tag) == tag)
            let opened = try key.withUnsafeBytes { key in
                try nonce.withUnsafeBytes { nonce in
                    try sealed.ciphertext.withUnsafeBytes { ciphertext in
                        try sealed.tag.withUnsafeBytes { try AESGCM.open(ciphertext, tag: $0, key: key, nonce: nonce) }
                    }
                }
            }
            #expect(Self.secure(opened) == Self.hex(plaintext))
        }
    }

    @Test("AES-256-GCM refuses a changed ciphertext, tag or associated data, and wrong lengths")
    func gcmFailures() throws {
        let key = (0..<32).map { UInt8($0) }
        let nonce = (0..<12).map { UInt8($0 + 100) }
        let aad = Array("label".utf8)
        let plaintext = Array("attack at dawn".utf8)
        let sealed = try key.withUnsafeBytes { key in
            try nonce.withUnsafeBytes { nonce in
                try aad.withUnsafeBytes { aad in try plaintext.withUnsafeBytes { try AESGCM.seal($0, key: key, nonce: nonce, associatedData: aad) } }
            }
        }
        func open(_ ciphertext: [UInt8], _ tag: [UInt8], _ aad: [UInt8], key: [UInt8] = key, nonce: [UInt8] = nonce) throws -> [UInt8] {
            try key.withUnsafeBytes { key in
                try nonce.withUnsafeBytes { nonce in
                    try aad.withUnsafeBytes { aad in
                        try ciphertext.withUnsafeBytes { ciphertext in
                            try tag.withUnsafeBytes { tag in
                                try AESGCM.open(ciphertext, tag: tag, key: key, nonce: nonce, associatedData: aad).withUnsafeBytes { Array($0) }
                            }
                        }
                    }
                }
            }
        }
        #expect(try open(sealed.ciphertext, sealed.tag, aad) == plaintext)
        var changed = sealed.ciphertext
        changed[3] ^= 0x80
        #expect(throws: AESGCM.Failure.authenticationFailed) { try open(changed, sealed.tag, aad) }
        var tag = sealed.tag
        tag[15] ^= 1
        #expect(throws: AESGCM.Failure.authenticationFailed) { try open(sealed.ciphertext, tag, aad) }
        #expect(throws: AESGCM.Failure.authenticationFailed) { try open(sealed.ciphertext, sealed.tag, Array("lab3l".utf8)) }
        #expect(throws: AESGCM.Failure.invalidLength(what: "tag", byteCount: 12, expected: 16)) {
            try open(sealed.ciphertext, Array(sealed.tag.prefix(12)), aad)
        }
        #expect(throws: AESGCM.Failure.invalidLength(what: "key", byteCount: 16, expected: 32)) {
            try open(sealed.ciphertext, sealed.tag, aad, key: Array(key.prefix(16)))
        }
        #expect(throws: AESGCM.Failure.invalidLength(what: "nonce", byteCount: 16, expected: 12)) {
            try open(sealed.ciphertext, sealed.tag, aad, nonce: key.prefix(16).map { $0 })
        }
    }

    @Test("scrypt matches RFC 7914's vector, and takes Aegis's N=2^15 r=8 that EVP_PBE_scrypt's default memory limit refuses")
    func scrypt() throws {
        let password = Array("password".utf8)
        let salt = Array("NaCl".utf8)
        let key = try password.withUnsafeBytes { password in
            try salt.withUnsafeBytes { try PasswordKDF.scrypt(password: password, salt: $0, n: 1024, r: 8, p: 16, keyByteCount: 64) }
        }
        #expect(
            Self.secure(key)
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        )
        let aegis = try password.withUnsafeBytes { password in
            try salt.withUnsafeBytes { try PasswordKDF.scrypt(password: password, salt: $0, n: 1 << 15, r: 8, p: 1) }
        }
        #expect(aegis.count == 32)
        #expect(PasswordKDF.scryptMemory(n: 1 << 15, r: 8, p: 1) == 33_557_504)
        #expect(throws: PasswordKDF.Failure.self) {
            try password.withUnsafeBytes { password in
                try salt.withUnsafeBytes { try PasswordKDF.scrypt(password: password, salt: $0, n: 1000, r: 8, p: 1) }
            }
        }
    }

    @Test("PBKDF2-HMAC-SHA1 matches RFC 6070 and PBKDF2-HMAC-SHA256 RFC 7914's section 11; SHA-256 of a password")
    func pbkdf2() throws {
        func derive(_ password: String, _ salt: String, _ iterations: Int, _ hash: PasswordKDF.PBKDF2Hash, _ length: Int) throws -> String {
            let key = try Array(password.utf8).withUnsafeBytes { password in
                try Array(salt.utf8).withUnsafeBytes {
                    try PasswordKDF.pbkdf2(password: password, salt: $0, iterations: iterations, hash: hash, keyByteCount: length)
                }
            }
            return Self.secure(key)
        }
        #expect(try derive("password", "salt", 1, .sha1, 20) == "0c60c80f961f0e71f3a9b524af6012062fe037a6")
        #expect(try derive("password", "salt", 4096, .sha1, 20) == "4b007901b765489abead49d926f721d065a429c1")
        #expect(
            try derive("passwd", "salt", 1, .sha256, 64)
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
        )
        #expect(throws: PasswordKDF.Failure.self) { try derive("password", "salt", 0, .sha1, 20) }
        let digest = try Array("test".utf8).withUnsafeBytes { try PasswordKDF.sha256(password: $0) }
        #expect(Self.secure(digest) == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
    }
}
