import OTPCore

extension OTPAuthURI {
    /// The URI in Google's Key Uri Format, ready for a QR code.
    ///
    /// The label is `issuer:account` (just `account` without an issuer), followed by `secret`
    /// (Base32 without padding), `issuer`, `algorithm`, `digits`, `period` (HOTP: only when not 30),
    /// `counter` (HOTP), then ``additionalParameters``. Text is percent-encoded per RFC 3986 only
    /// where it must be: a `:` inside the issuer or account becomes `%3A`, `@` stays as it is.
    public var string: String {
        var capacity = 96 + 3 * URIWriter.decimalBound + (secret.byteCount * 8 + 4) / 5
        capacity += URIWriter.escapedBound(accountName) + 2 * URIWriter.escapedBound(issuer ?? "")
        for parameter in additionalParameters {
            capacity += 2 + URIWriter.escapedBound(parameter.name) + URIWriter.escapedBound(parameter.value)
        }
        return URIWriter.makeString(capacity: capacity) { output in
            output.write(kind == .totp ? "otpauth://totp/" : "otpauth://hotp/")
            if let issuer {
                output.write(issuer, escapingFor: .label)
                output.write(UInt8(ascii: ":"))
            } else if Self.labelHasSeparator(issuer: nil, accountName: accountName) {
                // Without a literal colon a parser would split at the escaped one; an empty issuer
                // prefix keeps the account whole.
                output.write(UInt8(ascii: ":"))
            }
            output.write(accountName, escapingFor: .label)
            output.write("?secret=")
            output.writeBase32(secret)
            if let issuer {
                output.write("&issuer=")
                output.write(issuer, escapingFor: .query)
            }
            switch algorithm {
            case .sha1: output.write("&algorithm=SHA1&digits=")
            case .sha256: output.write("&algorithm=SHA256&digits=")
            case .sha512: output.write("&algorithm=SHA512&digits=")
            }
            output.writeDecimal(UInt64(digits))
            if kind == .totp || period != Self.defaultPeriod {
                output.write("&period=")
                output.writeDecimal(UInt64(period))
            }
            if let counter {
                output.write("&counter=")
                output.writeDecimal(counter)
            }
            for parameter in additionalParameters {
                output.write(UInt8(ascii: "&"))
                output.write(parameter.name, escapingFor: .query)
                output.write(UInt8(ascii: "="))
                output.write(parameter.value, escapingFor: .query)
            }
        }
    }

    /// The URL Firebase's `TOTPSecret.generateQRCodeURL(withAccountName:issuer:)` builds:
    /// `otpauth://totp/{issuer}:{account}?secret={key}&issuer={issuer}&algorithm={alg}&digits={n}`.
    ///
    /// The result is byte-identical to Firebase's whenever nothing needs escaping (for example
    /// issuer `myawesomeapp`, account `user@myawesomeapp`, key `key123`, `SHA1`, 6 digits gives
    /// `otpauth://totp/myawesomeapp:user@myawesomeapp?secret=key123&issuer=myawesomeapp&algorithm=SHA1&digits=6`).
    /// Where Firebase would emit an invalid URI (a space, `&`, `#`, a colon inside the issuer, …)
    /// this escapes per RFC 3986 instead. Like Firebase, there is no `period` parameter, and the
    /// result is the empty string when `hashingAlgorithm` is empty or `codeLength` is not positive.
    public static func firebaseQRCodeURL(
        sharedSecretKey: String,
        accountName: String,
        issuer: String,
        hashingAlgorithm: String,
        codeLength: Int
    ) -> String {
        guard !hashingAlgorithm.isEmpty, codeLength > 0 else { return "" }
        var capacity = 64 + URIWriter.decimalBound + URIWriter.escapedBound(sharedSecretKey)
        capacity += URIWriter.escapedBound(accountName) + 2 * URIWriter.escapedBound(issuer)
        capacity += URIWriter.escapedBound(hashingAlgorithm)
        return URIWriter.makeString(capacity: capacity) { output in
            output.write("otpauth://totp/")
            output.write(issuer, escapingFor: .label)
            output.write(UInt8(ascii: ":"))
            output.write(accountName, escapingFor: .label)
            output.write("?secret=")
            output.write(sharedSecretKey, escapingFor: .query)
            output.write("&issuer=")
            output.write(issuer, escapingFor: .query)
            output.write("&algorithm=")
            output.write(hashingAlgorithm, escapingFor: .query)
            output.write("&digits=")
            output.writeDecimal(UInt64(codeLength))
        }
    }
}

extension OTPAuthURI: CustomStringConvertible {
    /// A summary without the secret, safe to log.
    public var description: String {
        var text = "OTPAuthURI(\(kind.rawValue), "
        if let issuer { text += "issuer: \(issuer), " }
        text += "account: \(accountName), \(algorithm.rawValue), \(digits) digits, "
        text += kind == .totp ? "period \(period)s" : "counter \(counter ?? 0)"
        return text + ", secret redacted)"
    }
}
