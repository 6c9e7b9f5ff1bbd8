import Foundation
import OTPTestUtilities
import Testing

@Suite("Fixture loader")
struct FixtureTests {
    @Test("the RFC vector files decode from any working directory")
    func vectors() throws {
        let hotp = try TestVectors.hotp()
        #expect(hotp.vectors.count == 10)
        #expect(hotp.vectors.first?.code == "755224")
        #expect(try TestVectors.totp().vectors.count == 18)
        #expect(try TestVectors.base32().vectors.count == 7)
    }

    @Test("a missing fixture names its path")
    func missing() {
        let error = #expect(throws: Fixture.Unreadable.self) { try Fixture.data("TestVectors/no-such-file.json") }
        #expect(error?.path == Fixture.repositoryRoot.appendingPathComponent("TestVectors/no-such-file.json").path)
    }

    @Test("a directory of fixtures lists its files, sorted")
    func directories() throws {
        let names = try Fixture.fileNames(in: "Tests/Fuzz/Regressions/FuzzParsers")
        #expect(names.contains("parameter-name-case"))
        #expect(names == names.sorted())
        #expect(throws: Fixture.Unreadable.self) { try Fixture.fileNames(in: "Tests/no-such-directory") }
    }
}
