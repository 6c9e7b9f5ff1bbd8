import OTPCore

extension OTPAuthURI {
    /// The URI in Google's Key Uri Format, ready for a QR code.
    ///
    /// The label is `issuer:account` (just `account` without an issuer), followed by `secret`
    /// (Base32 without padding), `issuer`, `algorithm`, `digits`, `period` (HOTP: only when not 30),
    /// `counter` (HOTP), then ``additionalParameters``. Text is percent-encoded per RFC 3986 only
    /// where it must be: a `:` inside the issuer or account becomes `%3A`, `@` stays as it is.
    public var string: String {
        var output = "otpauth://"
        output.reserveCapacity(96 + accountName.utf8.count + 2 * (issuer?.utf8.count ?? 0) + 2 * secret.byteCount)
        output += kind.rawValue
        output += "/"
        if let issuer {
            PercentEncoding.append(issuer, escapingFor: .label, to: &output)
            output += ":"
        } else if accountName.utf8.contains(UInt8(ascii: ":")) {
            // Without a literal colon a parser would split at the escaped one; an empty issuer
            // prefix keeps the account whole.
            output += ":"
        }
        PercentEncoding.append(accountName, escapingFor: .label, to: &output)
        output += "?secret="
        output += secret.base32
        if let issuer {
            output += "&issuer="
            PercentEncoding.append(issuer, escapingFor: .query, to: &output)
        }
        output += "&algorithm="
        output += algorithm.rawValue
        output += "&digits="
        output += String(digits)
        if kind == .totp || period != Self.defaultPeriod {
            output += "&period="
            output += String(period)
        }
        if let counter {
            output += "&counter="
            output += String(counter)
        }
        for parameter in additionalParameters {
            output += "&"
            PercentEncoding.append(parameter.name, escapingFor: .query, to: &output)
            output += "="
            PercentEncoding.append(parameter.value, escapingFor: .query, to: &output)
        }
        return output
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
        var output = "otpauth://totp/"
        PercentEncoding.append(issuer, escapingFor: .label, to: &output)
        output += ":"
        PercentEncoding.append(accountName, escapingFor: .label, to: &output)
        output += "?secret="
        PercentEncoding.append(sharedSecretKey, escapingFor: .query, to: &output)
        output += "&issuer="
        PercentEncoding.append(issuer, escapingFor: .query, to: &output)
        output += "&algorithm="
        PercentEncoding.append(hashingAlgorithm, escapingFor: .query, to: &output)
        output += "&digits="
        output += String(codeLength)
        return output
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
