import OTPTestUtilities
import OTPSMS
import Testing

@Suite("Log SMS sender")
struct LogSMSSenderTests {
    @Test("each message is one notice with the number masked and the text in full")
    func logs() async throws {
        let log = CapturedLog()
        let sender = LogSMSSender(logger: log.logger)
        try await sender.send("123456 is your code", to: "+15555554444")
        try await sender.send("654321", to: "+4930123")
        #expect(
            log.entries == [
                .init(level: .notice, message: "SMS to +1******4444: 123456 is your code"),
                .init(level: .notice, message: "SMS to ******23: 654321"),
            ])
    }
}
