import Testing

import OTPDelivery
@testable import OTPSMS

@Suite("Redaction and form encoding")
struct RedactionTests {
    @Test(
        "numbers keep their country prefix and last four digits; short ones their last two",
        arguments: [
            ("+15555554444", "+1******4444"), ("+447700900123", "+4*******0123"), ("+4930123", "******23"), ("12", "12"), ("", ""),
        ])
    func masksNumbers(number: String, masked: String) {
        #expect(Redaction.maskedPhoneNumber(number) == masked)
    }

    @Test("a gateway's or program's words lose the message and its code, control characters, and their excess")
    func redactsDetails() {
        let message = "Your code is 123456. Expires in 5 minutes."
        #expect(Redaction.detail("failed: \(message)", without: [message]) == "failed: [message]")
        #expect(Redaction.detail("code 123456 not sent\u{1B}[31m", without: [message]) == "code [message] not sent[31m")
        // Short digit words (the "5") are too common to cut and hold no code.
        #expect(Redaction.detail("retry in 5", without: [message]) == "retry in 5")
        #expect(Redaction.detail(String(repeating: "x", count: 300), without: [message]) == String(repeating: "x", count: 200) + "…")
    }

    @Test(
        "addresses keep their domain and first character",
        arguments: [("ada.lovelace@example.com", "a***********@example.com"), ("a@b.org", "a@b.org"), ("@x", "**"), ("no-at", "*****")])
    func masksAddresses(address: String, masked: String) {
        #expect(Redaction.maskedAddress(address) == masked)
    }

    @Test("a link and its code are cut out of an answer whole, whichever is quoted")
    func redactsLinks() {
        let code = "Xk_3vQp-9aZrT"
        let link = "https://example.com/__/auth/action?mode=resetPassword&oobCode=\(code)&apiKey=web"
        #expect(Redaction.detail("bad link \(link)", without: [link, code]) == "bad link [message]")
        #expect(Redaction.detail("unknown code \(code).", without: [link, code]) == "unknown code [message].")
    }

    @Test("form fields encode as WHATWG's serializer does")
    func formEncoding() {
        #expect(
            FormEncoding.encode([("To", "+15555550100"), ("Body", "a b&c=d%e/ü*-._~")])
                == "To=%2B15555550100&Body=a+b%26c%3Dd%25e%2F%C3%BC*-._%7E")
    }
}
