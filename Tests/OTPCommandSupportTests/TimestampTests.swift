import OTPCore
import OTPCommandSupport
import Testing

@Suite("ISO 8601 times")
struct TimestampTests {
    @Test(
        "Unix seconds format as UTC date-times",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00Z"),
            (1_111_111_109, "2005-03-18T01:58:29Z"),
            (1_795_445_433, "2026-11-23T14:50:33Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (20_000_000_000, "2603-10-11T11:33:20Z"),
        ])
    func format(_ seconds: Int64, _ text: String) {
        #expect(Timestamp.format(seconds) == text)
        #expect(Timestamp.parse(text) == seconds)
    }

    @Test("arrays of objects are one line of JSON with escaped strings")
    func jsonArray() {
        var first = JSONObject()
        first.add("name", "a \"quoted\"\nline")
        first.add("at", Int64(1_795_445_433))
        var second = JSONObject()
        second.add("name", nil as String?)
        #expect(JSONObject.array([first, second]) == #"[{"name":"a \"quoted\"\nline","at":1795445433},{"name":null}]"#)
        #expect(JSONObject.array([]) == "[]")
    }
}
