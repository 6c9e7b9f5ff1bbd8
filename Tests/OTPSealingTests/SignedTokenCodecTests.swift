import OTPSealing
import Testing

/// Signed tokens (`<prefix>.<record id>.<uid>[.<claim>]….<MAC>`): what opens is exactly what was
/// made, and a token changed anywhere, of another kind or of another keyring opens to nothing.
@Suite("Signed tokens")
struct SignedTokenCodecTests {
    static let sealer = try! SecretSealer(current: SealingKey(bytes: (0..<32).map { UInt8($0) }))
    static let codec = SignedTokenCodec(keys: sealer, prefix: "otpkt1", context: "otpkit test token:")

    @Test("a token opens to its record, user and claims, non-ASCII ones included")
    func roundTrip() throws {
        let token = try Self.codec.token(recordID: "Rec0rd9", userID: "kim-é", claims: ["password", "", "1800000000", "日本"])
        let opened = try #require(Self.codec.open(token, claimCount: 4))
        #expect(opened.recordID == "Rec0rd9")
        #expect(opened.userID == "kim-é")
        #expect(opened.claims == ["password", "", "1800000000", "日本"])
        #expect(Self.codec.open(try Self.codec.token(recordID: "r", userID: "u"))?.recordID == "r")
    }

    @Test("a token with any one character of its record id, user, claims or MAC changed does not open")
    func everyChangeIsRefused() throws {
        // Every part but the MAC a whole number of 3-byte groups, so that each of its characters
        // carries bits of the value and none carries padding.
        let token = try Self.codec.token(recordID: "record1", userID: "kim", claims: ["pwd", "180000"])
        let bytes = Array(token.utf8)
        let macStart = bytes.lastIndex(of: UInt8(ascii: "."))! + 1
        var refused = 0
        // After the prefix; the MAC's last character is left out, as its low bits are padding
        // that base64url decoders may ignore (the MAC's bytes, not its spelling, are compared).
        for index in (bytes.firstIndex(of: UInt8(ascii: "."))! + 1)..<(bytes.count - 1) where bytes[index] != UInt8(ascii: ".") {
            for replacement in ["A", "z", "-"].map({ UInt8(ascii: $0) }) where replacement != bytes[index] {
                var changed = bytes
                changed[index] = replacement
                let candidate = String(decoding: changed, as: UTF8.self)
                #expect(Self.codec.open(candidate, claimCount: 2) == nil, "byte \(index) (MAC from \(macStart)) as \(replacement)")
                refused += 1
            }
        }
        #expect(refused > 100)
    }

    @Test("malformed tokens, other kinds and other keyrings do not open")
    func malformedAndForeignTokens() throws {
        let token = try Self.codec.token(recordID: "record1", userID: "kim", claims: ["password"])
        #expect(Self.codec.open(token, claimCount: 1) != nil)
        #expect(Self.codec.open(token, claimCount: 0) == nil, "a claim more than expected")
        #expect(Self.codec.open(token, claimCount: 2) == nil, "a claim fewer than expected")
        #expect(Self.codec.open(token + "=", claimCount: 1) == nil, "padding")
        #expect(Self.codec.open(token + ".", claimCount: 1) == nil, "an empty part more")
        #expect(Self.codec.open("", claimCount: 1) == nil)
        #expect(Self.codec.open("otpkt1", claimCount: 1) == nil)
        let otherKind = SignedTokenCodec(keys: Self.sealer, prefix: "otpkt1", context: "otpkit other token:")
        #expect(otherKind.open(token, claimCount: 1) == nil, "a token of another context")
        let otherPrefix = SignedTokenCodec(keys: Self.sealer, prefix: "otpkt2", context: "otpkit test token:")
        #expect(otherPrefix.open(token, claimCount: 1) == nil, "a token of another prefix")
        let otherKeys = SignedTokenCodec(
            keys: try SecretSealer(current: SealingKey(bytes: (0..<32).map { UInt8(255 - $0) })), prefix: "otpkt1", context: "otpkit test token:")
        #expect(otherKeys.open(token, claimCount: 1) == nil, "a token of another keyring")
        // Record ids are ASCII letters and digits: a MAC over any other id still does not open.
        for recordID in ["", "re-cord", "récord", "rec ord", "rec_ord"] {
            let made = try Self.codec.token(recordID: recordID, userID: "kim")
            #expect(Self.codec.open(made) == nil, "record id \(recordID)")
        }
    }

    @Test("a token made under an earlier key opens after a rotation that keeps that key")
    func rotatedKeys() throws {
        let old = try SealingKey(bytes: (0..<32).map { UInt8($0) })
        let new = try SealingKey(bytes: (0..<32).map { UInt8($0 &* 3) })
        let token = try Self.codec.token(recordID: "record1", userID: "kim")
        let rotated = SignedTokenCodec(keys: try SecretSealer(current: new, previous: [old]), prefix: "otpkt1", context: "otpkit test token:")
        #expect(rotated.open(token)?.userID == "kim")
    }
}
