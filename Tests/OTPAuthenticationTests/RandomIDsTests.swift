@testable import OTPAuthentication
import Testing

@Suite("Random ids")
struct RandomIDsTests {
    static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    @Test("ids are 15 alphanumeric characters, never repeated, across many refills of the batch")
    func shape() throws {
        let ids = RandomIDs()
        var seen = Set<String>()
        for _ in 0..<50_000 {
            let id = try ids.next()
            #expect(id.utf8.count == 15)
            #expect(id.allSatisfy(Self.alphabet.contains))
            #expect(seen.insert(id).inserted)
        }
    }

    @Test("every character is equally likely (no modulo bias)")
    func uniform() throws {
        let ids = RandomIDs()
        var counts: [Character: Int] = [:]
        let idCount = 100_000
        for _ in 0..<idCount {
            for character in try ids.next() { counts[character, default: 0] += 1 }
        }
        // 24,194 expected per character, standard deviation about 155: 4% is more than 6 of
        // them, while taking `byte % 62` without rejection makes eight characters 20% likelier.
        let expected = Double(idCount * 15) / 62
        #expect(counts.count == 62)
        for (character, count) in counts {
            #expect(abs(Double(count) - expected) < expected * 0.04, "\(character): \(count) times, expected \(Int(expected))")
        }
    }
}
