import OTPAuthentication

/// The checks of account management: administrators' updates in one operation, and listing
/// every account page by page.
extension AuthStoreConformance {
    static func customAttributes(_ store: any AuthStore) async throws {
        let claims = #"{"admin":true,"level":5,"groups":["a","b"],"name":"Zoë"}"#
        let ida = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1, customAttributes: claims)
        let jo = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 2)
        _ = try await store.insertAccount(ida)
        _ = try await store.insertAccount(jo)
        try checkEqual(try await store.account(id: ida.id), ida, "Ida inserted with her claims, byte for byte")
        try checkEqual(try await store.account(id: jo.id)?.customAttributes, nil, "Jo without claims")

        var expected = jo
        expected.customAttributes = #"{"role":"editor"}"#
        try checkEqual(
            try await store.updateAccount(id: jo.id, changes: AccountChanges(customAttributes: .set(#"{"role":"editor"}"#))), .updated(expected),
            "setting Jo's claims")
        expected.displayName = "Jo"
        try checkEqual(
            try await store.updateAccount(id: jo.id, changes: AccountChanges(displayName: .set("Jo"))), .updated(expected),
            "another change keeps the claims")
        try checkEqual(try await store.account(id: jo.id), expected, "Jo read back with claims and name")
        // A refused update leaves them as they were.
        let address = "\(uniqueID("kim"))@example.com"
        _ = try await store.insertAccount(AccountRecord(id: uniqueID("account"), email: address, createdAt: 3))
        try checkEqual(
            try await store.updateAccount(id: jo.id, changes: AccountChanges(email: address, customAttributes: .remove)), .emailAlreadyInUse,
            "Jo taking Kim's address")
        try checkEqual(try await store.account(id: jo.id), expected, "a refused update removed the claims")
        expected.customAttributes = nil
        try checkEqual(
            try await store.updateAccount(id: jo.id, changes: AccountChanges(customAttributes: .remove)), .updated(expected), "removing them")
        try checkEqual(try await store.account(id: jo.id), expected, "Jo without claims again")
        try checkEqual(try await store.accounts(after: nil, limit: 1000).first { $0.id == ida.id }, ida, "Ida's claims in a listing")
    }

    static func passwordHashRemoved(_ store: any AuthStore) async throws {
        let address = "\(uniqueID("lu"))@example.com"
        let lu = AccountRecord(id: uniqueID("account"), email: address, createdAt: 1, passwordHash: "$scrypt$ln=10,r=8,p=1$c2FsdA$a2V5")
        _ = try await store.insertAccount(lu)
        var expected = lu
        expected.passwordHash = nil
        expected.isEmailVerified = true
        expected.tokensValidAfter = 5
        let changes = AccountChanges(isEmailVerified: true, tokensValidAfter: 5, removesPasswordHash: true)
        try checkEqual(try await store.updateAccount(id: lu.id, changes: changes), .updated(expected), "removing Lu's password")
        try checkEqual(try await store.account(id: lu.id), expected, "Lu read back without a password")
        try checkEqual(try await store.account(email: address)?.id, lu.id, "the address still Lu's")
        let other = AccountRecord(id: uniqueID("account"), email: address, createdAt: 2)
        try checkEqual(try await store.insertAccount(other), .emailAlreadyInUse, "the address still taken")
    }

    static func accountUpdateUnlinks(_ store: any AuthStore) async throws {
        let address = "\(uniqueID("cy"))@example.com"
        let cy = AccountRecord(id: uniqueID("account"), email: address, isEmailVerified: true, createdAt: 1, passwordHash: "hash")
        _ = try await store.insertAccount(cy)
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        let github = ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub"))
        try checkEqual(try await store.linkProviderIdentity(google, accountID: cy.id), .linked, "linking Google to Cy")
        try checkEqual(try await store.linkProviderIdentity(github, accountID: cy.id), .linked, "linking GitHub to Cy")

        // A refused update unlinks nothing.
        let dee = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("dee"))@example.com", createdAt: 2)
        _ = try await store.insertAccount(dee)
        try checkEqual(
            try await store.updateAccount(id: cy.id, changes: AccountChanges(email: dee.email, unlinkedProviders: ["github.com"])),
            .emailAlreadyInUse, "Cy taking Dee's address while unlinking GitHub")
        try checkEqual(try await store.providerIdentities(accountID: cy.id), [github, google], "a refused update unlinked an identity")

        var expected = cy
        expected.displayName = "Cy"
        expected.email = nil
        expected.isEmailVerified = false
        expected.passwordHash = nil
        // An id the account has no identity of changes nothing.
        let changes = AccountChanges(displayName: .set("Cy"), unlinkedProviders: ["password", "google.com", "apple.com"])
        try checkEqual(try await store.updateAccount(id: cy.id, changes: changes), .updated(expected), "unlinking the password and Google")
        try checkEqual(try await store.account(id: cy.id), expected, "Cy without a password or an address")
        try checkEqual(try await store.providerIdentities(accountID: cy.id), [github], "GitHub stays")
        try checkEqual(try await store.accountID(providerID: "google.com", providerUID: google.providerUID), nil, "the Google identity is free")
        try checkEqual(try await store.account(email: address), nil, "the address is free")
        let eve = AccountRecord(id: uniqueID("account"), email: address, createdAt: 3)
        try checkEqual(try await store.insertAccount(eve), .inserted, "another account takes the address")
        try checkEqual(try await store.linkProviderIdentity(google, accountID: eve.id), .linked, "another account takes the Google identity")
        try checkEqual(
            try await store.updateAccount(id: cy.id, changes: AccountChanges(unlinkedProviders: ["github.com", "password"])),
            .updated(expected), "unlinking GitHub, and a password no longer there")
        try checkEqual(try await store.providerIdentities(accountID: cy.id), [], "Cy without identities")
        try checkEqual(try await store.providerIdentities(accountID: eve.id), [google], "Eve keeps hers")
    }

    static func accountUpdate(_ store: any AuthStore) async throws {
        let ada = AccountRecord(
            id: uniqueID("account"), email: "\(uniqueID("ada"))@example.com", isEmailVerified: true, displayName: "Ada", createdAt: 1,
            tokensValidAfter: 5)
        let bob = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("bob"))@example.com", createdAt: 2)
        _ = try await store.insertAccount(ada)
        _ = try await store.insertAccount(bob)
        try checkEqual(try await store.account(id: ada.id), ada, "Ada with the time her tokens are valid after")

        var expected = ada
        expected.email = "\(uniqueID("lovelace"))@example.com"
        expected.isEmailVerified = false
        expected.displayName = nil
        expected.photoURL = "https://example.com/ada.png"
        expected.isDisabled = true
        expected.passwordHash = "hash"
        expected.tokensValidAfter = 9
        let changes = AccountChanges(
            email: expected.email, displayName: .remove, photoURL: .set("https://example.com/ada.png"), passwordHash: "hash",
            isDisabled: true, tokensValidAfter: 9)
        try checkEqual(try await store.updateAccount(id: ada.id, changes: changes), .updated(expected), "updating Ada")
        try checkEqual(try await store.account(id: ada.id), expected, "Ada updated")
        try checkEqual(try await store.account(email: ada.email!), nil, "Ada's old address is free")
        try checkEqual(try await store.account(email: expected.email!), expected, "Ada by her new address")
        try checkEqual(try await store.updateAccount(id: ada.id, changes: AccountChanges()), .updated(expected), "no change at all")
        expected.isEmailVerified = true
        try checkEqual(
            try await store.updateAccount(id: ada.id, changes: AccountChanges(email: expected.email, isEmailVerified: true)),
            .updated(expected), "the same address, verified")

        let phone = ProviderIdentity(providerID: "phone", providerUID: "+1201555\(Int.random(in: 1000...9999))", phoneNumber: "+12015550100")
        try checkEqual(try await store.updateAccount(id: ada.id, changes: AccountChanges(phone: .set(phone))), .updated(expected), "Ada's phone")
        try checkEqual(try await store.accountID(providerID: "phone", providerUID: phone.providerUID), ada.id, "Ada by her phone")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [phone], "Ada's identities")
        let otherPhone = ProviderIdentity(providerID: "phone", providerUID: phone.providerUID + "1", phoneNumber: phone.providerUID + "1")
        try checkEqual(
            try await store.updateAccount(id: ada.id, changes: AccountChanges(phone: .set(otherPhone))), .updated(expected), "Ada's new phone")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [otherPhone], "the new phone replaced the old")
        try checkEqual(try await store.accountID(providerID: "phone", providerUID: phone.providerUID), nil, "the old number is free")

        // Refusals change nothing, not even the fields that were not refused.
        try checkEqual(
            try await store.updateAccount(id: bob.id, changes: AccountChanges(email: expected.email, displayName: .set("Bob"))),
            .emailAlreadyInUse, "Bob taking Ada's address")
        try checkEqual(
            try await store.updateAccount(id: bob.id, changes: AccountChanges(displayName: .set("Bob"), phone: .set(otherPhone))),
            .identityInUse(accountID: ada.id), "Bob taking Ada's number")
        try checkEqual(try await store.account(id: bob.id), bob, "Bob unchanged")
        try checkEqual(try await store.providerIdentities(accountID: bob.id), [], "Bob without a phone")
        try checkEqual(
            try await store.updateAccount(id: uniqueID("account"), changes: AccountChanges(displayName: .set("X"))), .accountNotFound,
            "no account")

        try checkEqual(try await store.updateAccount(id: ada.id, changes: AccountChanges(phone: .remove)), .updated(expected), "removing the phone")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [], "Ada without a phone")
        try checkEqual(try await store.accountID(providerID: "phone", providerUID: otherPhone.providerUID), nil, "her number is free")
        try checkEqual(
            try await store.updateAccount(id: bob.id, changes: AccountChanges(phone: .set(otherPhone))), .updated(bob),
            "Bob takes the freed number")
    }

    static func accountListing(_ store: any AuthStore) async throws {
        // Ids that sort differently by bytes than by case-insensitive or locale rules.
        let prefix = uniqueID("list")
        let ids = ["\(prefix)-B", "\(prefix)-a", "\(prefix)-b", "\(prefix)-_", "\(prefix)-A1"]
        for (index, id) in ids.enumerated() {
            _ = try await store.insertAccount(AccountRecord(id: id, email: nil, createdAt: Int64(index)))
        }
        var listed: [String] = []
        var after: String? = nil
        var pages = 0
        while true {
            let page = try await store.accounts(after: after, limit: 2)
            try check(page.count <= 2, "a page holds at most its limit")
            guard let last = page.last else { break }
            listed += page.map(\.id)
            after = last.id
            pages += 1
            try check(pages < 100_000, "listing ends")
        }
        for (earlier, later) in zip(listed, listed.dropFirst()) {
            try check(earlier.utf8.lexicographicallyPrecedes(later.utf8), "ids in byte order: \(earlier) before \(later)")
        }
        let ours = listed.filter { $0.hasPrefix(prefix) }
        try checkEqual(ours, ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "every account once, in byte order")
        try checkEqual(try await store.accounts(after: ids.max(), limit: 0), [], "a page of none")
        let first = try await store.accounts(after: "\(prefix)-B", limit: 1)
        try checkEqual(first.map(\.id), ["\(prefix)-_"], "the page after an id")
    }
}
