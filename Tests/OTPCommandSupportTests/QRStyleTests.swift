import ArgumentParser
import OTPCommandSupport
import OTPQR
import Testing

@Suite("QR drawing styles")
struct QRStyleTests {
    @Test("one vocabulary: the words both commands accept, in help order")
    func words() {
        #expect(QRStyle.allCases.map(\.rawValue) == ["utf8", "utf8-inverted", "ansi", "ascii", "none"])
        #expect(QRStyle.words == "utf8, utf8-inverted, ansi, ascii or none")
        #expect(QRStyle.allValueStrings == QRStyle.allCases.map(\.rawValue))
    }

    @Test(
        "every word parses as an argument; inverted is kept for totp enroll's earlier scripts; others are refused",
        arguments: [
            ("utf8", QRStyle.utf8), ("utf8-inverted", .utf8Inverted), ("inverted", .utf8Inverted),
            ("ansi", .ansi), ("ascii", .ascii), ("none", QRStyle.none),
        ])
    func parses(_ word: String, _ style: QRStyle) {
        #expect(QRStyle(argument: word) == style)
    }

    @Test("unknown words are refused", arguments: ["", "UTF8", "sixel", "utf8_inverted", "png"])
    func refuses(_ word: String) {
        #expect(QRStyle(argument: word) == nil)
    }

    @Test("each style draws with its renderer; none draws nothing")
    func renders() throws {
        let code = try QRCode(encoding: "hello")
        #expect(QRStyle.utf8.render(code) == code.utf8String(inverted: false))
        #expect(QRStyle.utf8Inverted.render(code) == code.utf8String(inverted: true))
        #expect(QRStyle.utf8.render(code) != QRStyle.utf8Inverted.render(code))
        #expect(QRStyle.ansi.render(code) == code.ansiString())
        #expect(QRStyle.ascii.render(code) == code.asciiString())
        #expect(QRStyle.none.render(code) == "")
    }
}
