import OTPCore
import OTPURI
import Testing

@testable import OTPVault

@Suite("Vault entries")
struct VaultEntryTests {
    @Test("new entries get distinct version 4 UUIDs in Aegis's lowercase form")
    func randomUUIDs() throws {
        let ids = try (0..<100).map { _ in try RandomUUID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.count == 36)
            #expect(id == id.lowercased())
            let groups = id.split(separator: "-").map(\.count)
            #expect(groups == [8, 4, 4, 4, 12])
            #expect(Array(id)[14] == "4")
            #expect("89ab".contains(Array(id)[19]))
        }
    }
}
