import OTPCore

// A first look at OTPCore: a fresh secret, its current code, and a verification.
let secret = try OTPSecret.random(for: .sha1)
let totp = try TOTP(secret: secret)
let now = TOTP.currentUnixTime()
let code = try totp.code(at: now)
print("secret: \(secret.base32)")
print("code:   \(code) (valid for \(totp.period - (now - totp.epoch) % totp.period) s)")
if let match = try totp.verify(code, at: now) {
    print("verify: ok, step \(match.step), offset \(match.offset)")
}
