@testable import OTPCore
import Testing

@Suite("Constant-time comparisons")
struct ConstantTimeTests {
    @Test("equal compares whole contents and lengths; contains finds a value among candidates")
    func comparisons() {
        let value: [UInt8] = [1, 2, 3, 4]
        #expect(ConstantTime.equal(value, [1, 2, 3, 4]))
        #expect(!ConstantTime.equal(value, [1, 2, 3, 5]), "the last byte differs")
        #expect(!ConstantTime.equal(value, [0, 2, 3, 4]), "the first byte differs")
        #expect(!ConstantTime.equal(value, [1, 2, 3]), "a prefix")
        #expect(ConstantTime.equal([], []))
        #expect(ConstantTime.contains([[9], [1, 2, 3, 4], [1, 2, 3, 4]], value))
        #expect(!ConstantTime.contains([[9], [1, 2, 3]], value))
        #expect(!ConstantTime.contains([], value))
    }
}
