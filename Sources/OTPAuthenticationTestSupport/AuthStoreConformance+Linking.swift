import OTPAuthentication

/// The checks of account linking: accounts inserted with an identity, identities linked with an
/// email address, passwords linked and unlinked, disabled accounts and profiles.
extension AuthStoreConformance {
    static func insertWithIdentity(_ store: any AuthStore) async throws {
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"), email: "ada@gmail.com", displayName: "Ada")
        let ada = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("ada"))@example.com", isEmailVerified: true, createdAt: 1)
        try checkEqual(try await store.insertAccount(ada, identity: google), .inserted, "Ada with her Google identity")
        try checkEqual(try await store.account(id: ada.id), ada, "Ada's account")
        try checkEqual(try await store.accountID(providerID: "google.com", providerUID: google.providerUID), ada.id, "the Google identity's owner")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [google], "Ada's identities")

        let bob = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("bob"))@example.com", createdAt: 2)
        try checkEqual(try await store.insertAccount(bob, identity: google), .identityInUse(accountID: ada.id), "Bob with Ada's identity")
        try checkEqual(try await store.account(id: bob.id), nil, "Bob's refused account")
        try checkEqual(try await store.account(email: bob.email!), nil, "Bob's refused address")
        try checkEqual(try await store.providerIdentities(accountID: bob.id), [], "Bob's identities")

        // Precedence: the id, then the identity, then the address.
        let sameID = AccountRecord(id: ada.id, email: ada.email, createdAt: 3)
        try checkEqual(try await store.insertAccount(sameID, identity: google), .idAlreadyInUse, "Ada's id, identity and address")
        let newID = AccountRecord(id: uniqueID("account"), email: ada.email, createdAt: 3)
        try checkEqual(try await store.insertAccount(newID, identity: google), .identityInUse(accountID: ada.id), "Ada's identity and address")
        let github = ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub"))
        try checkEqual(try await store.insertAccount(newID, identity: github), .emailAlreadyInUse, "a new identity with Ada's address")
        try checkEqual(try await store.account(id: newID.id), nil, "the account refused for the address")
        try checkEqual(try await store.accountID(providerID: "github.com", providerUID: github.providerUID), nil, "its identity")
        let sameIDNewIdentity = AccountRecord(id: ada.id, email: nil, createdAt: 3)
        try checkEqual(try await store.insertAccount(sameIDNewIdentity, identity: github), .idAlreadyInUse, "Ada's id with a new identity")
        try checkEqual(try await store.accountID(providerID: "github.com", providerUID: github.providerUID), nil, "the identity refused with the id")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [google], "Ada's identities after the refusals")
        try checkEqual(try await store.account(id: ada.id), ada, "Ada's account after the refusals")

        let number = "+1555\(Int.random(in: 1_000_000...9_999_999))"
        let phone = ProviderIdentity(providerID: "phone", providerUID: number, phoneNumber: number)
        let caller = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 4)
        try checkEqual(try await store.insertAccount(caller, identity: phone), .inserted, "an account with a phone identity and no address")
        try checkEqual(try await store.accountID(providerID: "phone", providerUID: number), caller.id, "the phone identity's owner")
        try checkEqual(try await store.providerIdentities(accountID: caller.id), [phone], "its identities")
        var renamed = newID
        renamed.email = "\(uniqueID("new"))@example.com"
        try checkEqual(
            try await store.insertAccount(renamed, identity: github), .inserted, "the refused account and identity, with an address of its own")
        try checkEqual(
            try await store.accountID(providerID: "github.com", providerUID: github.providerUID), renamed.id, "the GitHub identity's owner")
    }

    static func linkWithEmail(_ store: any AuthStore) async throws {
        let ada = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1)
        let bob = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("bob"))@example.com", isEmailVerified: true, createdAt: 2)
        _ = try await store.insertAccount(ada)
        _ = try await store.insertAccount(bob)
        let address = "\(uniqueID("ada"))@gmail.com"
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"), email: address)
        try checkEqual(
            try await store.linkProviderIdentity(google, accountID: ada.id, email: AccountEmailUpdate(address: address, isVerified: true)), .linked,
            "Google with its verified address to Ada")
        var expected = ada
        expected.email = address
        expected.isEmailVerified = true
        try checkEqual(try await store.account(id: ada.id), expected, "Ada with the address")
        try checkEqual(try await store.account(email: address), expected, "Ada by the address")
        try checkEqual(try await store.accountID(providerID: "google.com", providerUID: google.providerUID), ada.id, "the identity's owner")

        // A refusal for the address changes nothing.
        let github = ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub"))
        try checkEqual(
            try await store.linkProviderIdentity(github, accountID: ada.id, email: AccountEmailUpdate(address: bob.email!, isVerified: true)),
            .emailAlreadyInUse, "GitHub with Bob's address to Ada")
        try checkEqual(try await store.accountID(providerID: "github.com", providerUID: github.providerUID), nil, "the refused identity")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [google], "Ada's identities after the refusal")
        try checkEqual(try await store.account(id: ada.id), expected, "Ada after the refusal")
        try checkEqual(try await store.account(id: bob.id), bob, "Bob after the refusal")

        // The order of the checks: account, identity, provider, address.
        let bobsGoogle = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        try checkEqual(try await store.linkProviderIdentity(bobsGoogle, accountID: bob.id), .linked, "Google without an address to Bob")
        try checkEqual(try await store.account(id: bob.id), bob, "Bob, whose address a link without one keeps")
        let bobsEmail = AccountEmailUpdate(address: bob.email!, isVerified: true)
        try checkEqual(
            try await store.linkProviderIdentity(bobsGoogle, accountID: uniqueID("account"), email: bobsEmail), .accountNotFound,
            "Bob's identity and address to no account")
        try checkEqual(
            try await store.linkProviderIdentity(bobsGoogle, accountID: ada.id, email: bobsEmail), .identityInUse(accountID: bob.id),
            "Bob's identity and address to Ada")
        let otherGoogle = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        try checkEqual(
            try await store.linkProviderIdentity(otherGoogle, accountID: ada.id, email: bobsEmail), .providerAlreadyLinked,
            "a second Google identity with Bob's address to Ada")
        try checkEqual(try await store.account(id: ada.id), expected, "Ada after the refusals")

        // The account's own address, now verified; then a new address frees the old one.
        let carol = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("carol"))@example.com", createdAt: 3)
        _ = try await store.insertAccount(carol)
        let carolsOIDC = ProviderIdentity(providerID: "oidc.example", providerUID: uniqueID("sub"))
        try checkEqual(
            try await store.linkProviderIdentity(carolsOIDC, accountID: carol.id, email: AccountEmailUpdate(address: carol.email!, isVerified: true)),
            .linked, "an identity asserting Carol's own address")
        try checkEqual(try await store.account(id: carol.id)?.isEmailVerified, true, "Carol's address, verified")
        let newAddress = "\(uniqueID("carol"))@example.org"
        try checkEqual(
            try await store.linkProviderIdentity(
                ProviderIdentity(providerID: "github.com", providerUID: uniqueID("sub")), accountID: carol.id,
                email: AccountEmailUpdate(address: newAddress, isVerified: false)), .linked, "an identity with a new address for Carol")
        var carolNow = carol
        carolNow.email = newAddress
        carolNow.isEmailVerified = false
        try checkEqual(try await store.account(id: carol.id), carolNow, "Carol with her new address, unverified")
        try checkEqual(try await store.account(email: carol.email!), nil, "Carol's old address")
        let successor = AccountRecord(id: uniqueID("account"), email: carol.email, createdAt: 4)
        try checkEqual(try await store.insertAccount(successor), .inserted, "a new account with Carol's old address")
    }

    static func linkPassword(_ store: any AuthStore) async throws {
        let hash = "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaA"
        let anonymous = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1)
        _ = try await store.insertAccount(anonymous)
        let address = "\(uniqueID("anon"))@example.com"
        try checkEqual(
            try await store.linkPassword(accountID: anonymous.id, email: address, passwordHash: hash), .linked, "a password for an anonymous account")
        var expected = anonymous
        expected.email = address
        expected.passwordHash = hash
        try checkEqual(try await store.account(id: anonymous.id), expected, "the account with its unverified address and password")
        try checkEqual(try await store.account(email: address), expected, "the account by its address")
        try checkEqual(
            try await store.linkPassword(accountID: anonymous.id, email: "\(uniqueID("other"))@example.com", passwordHash: "$scrypt$other"),
            .passwordAlreadyLinked, "a second password")
        try checkEqual(try await store.account(id: anonymous.id), expected, "the account after the refusal")

        // The account's own verified address stays verified; another address is not.
        let verified = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("g"))@gmail.com", isEmailVerified: true, createdAt: 2)
        _ = try await store.insertAccount(verified)
        try checkEqual(
            try await store.linkPassword(accountID: verified.id, email: verified.email!, passwordHash: hash), .linked,
            "a password with the account's address")
        var verifiedNow = verified
        verifiedNow.passwordHash = hash
        try checkEqual(try await store.account(id: verified.id), verifiedNow, "the address still verified")
        let moving = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("h"))@gmail.com", isEmailVerified: true, createdAt: 3)
        _ = try await store.insertAccount(moving)
        let newAddress = "\(uniqueID("h"))@example.com"
        try checkEqual(
            try await store.linkPassword(accountID: moving.id, email: newAddress, passwordHash: hash), .linked, "a password with a new address")
        var movingNow = moving
        movingNow.email = newAddress
        movingNow.isEmailVerified = false
        movingNow.passwordHash = hash
        try checkEqual(try await store.account(id: moving.id), movingNow, "the new address, unverified")
        try checkEqual(try await store.account(email: moving.email!), nil, "the old address")

        // Another account's address; the order of the checks.
        let other = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 4)
        _ = try await store.insertAccount(other)
        try checkEqual(
            try await store.linkPassword(accountID: other.id, email: address, passwordHash: hash), .emailAlreadyInUse, "another account's address")
        try checkEqual(try await store.account(id: other.id), other, "the account after the refusal")
        try checkEqual(try await store.account(email: address), expected, "the address's owner after the refusal")
        try checkEqual(
            try await store.linkPassword(accountID: anonymous.id, email: verified.email!, passwordHash: hash), .passwordAlreadyLinked,
            "a second password with another account's address")
        try checkEqual(
            try await store.linkPassword(accountID: uniqueID("account"), email: address, passwordHash: hash), .accountNotFound,
            "a password for no account")
        try checkEqual(try await store.linkPassword(accountID: other.id, email: moving.email!, passwordHash: hash), .linked, "the freed old address")
    }

    static func unlinkPassword(_ store: any AuthStore) async throws {
        let hash = "$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaA"
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        let ada = AccountRecord(
            id: uniqueID("account"), email: "\(uniqueID("ada"))@example.com", isEmailVerified: true, displayName: "Ada", createdAt: 1,
            passwordHash: hash)
        _ = try await store.insertAccount(ada, identity: google)
        try checkEqual(try await store.unlinkProvider("password", accountID: ada.id), true, "unlinking Ada's password")
        var expected = ada
        expected.email = nil
        expected.isEmailVerified = false
        expected.passwordHash = nil
        try checkEqual(try await store.account(id: ada.id), expected, "Ada without password and address")
        try checkEqual(try await store.account(email: ada.email!), nil, "Ada's old address")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [google], "Ada's identities, untouched")
        try checkEqual(try await store.unlinkProvider("password", accountID: ada.id), false, "unlinking it again")

        let bob = AccountRecord(id: uniqueID("account"), email: "\(uniqueID("bob"))@gmail.com", isEmailVerified: true, createdAt: 2)
        _ = try await store.insertAccount(bob)
        try checkEqual(try await store.unlinkProvider("password", accountID: bob.id), false, "unlinking the password of an account without one")
        try checkEqual(try await store.account(id: bob.id), bob, "that account, unchanged")
        try checkEqual(try await store.unlinkProvider("password", accountID: uniqueID("account")), false, "unlinking the password of no account")

        let successor = AccountRecord(id: uniqueID("account"), email: ada.email, createdAt: 3)
        try checkEqual(try await store.insertAccount(successor), .inserted, "a new account with Ada's old address")
        try checkEqual(
            try await store.linkPassword(accountID: ada.id, email: "\(uniqueID("ada"))@example.org", passwordHash: hash), .linked,
            "a new password for Ada")
    }

    static func accountDisabledAndProfile(_ store: any AuthStore) async throws {
        let ada = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 1)
        _ = try await store.insertAccount(ada)
        var expected = ada
        try checkEqual(try await store.setAccountDisabled(id: ada.id, disabled: true), true, "disabling Ada")
        expected.isDisabled = true
        try checkEqual(try await store.account(id: ada.id), expected, "Ada disabled")
        try checkEqual(try await store.setAccountDisabled(id: ada.id, disabled: true), true, "disabling her again")
        try checkEqual(try await store.setAccountDisabled(id: ada.id, disabled: false), true, "enabling Ada")
        expected.isDisabled = false
        try checkEqual(try await store.account(id: ada.id), expected, "Ada enabled")
        try checkEqual(try await store.setAccountDisabled(id: uniqueID("account"), disabled: true), false, "disabling no account")

        try checkEqual(
            try await store.updateAccountProfile(id: ada.id, displayName: "Ada Lovelace", photoURL: "https://example.com/ada.png"), true,
            "setting Ada's profile")
        expected.displayName = "Ada Lovelace"
        expected.photoURL = "https://example.com/ada.png"
        try checkEqual(try await store.account(id: ada.id), expected, "Ada's profile")
        try checkEqual(try await store.updateAccountProfile(id: ada.id, displayName: "Ada", photoURL: nil), true, "clearing her photo")
        expected.displayName = "Ada"
        expected.photoURL = nil
        try checkEqual(try await store.account(id: ada.id), expected, "Ada's profile without photo")
        try checkEqual(try await store.updateAccountProfile(id: ada.id, displayName: nil, photoURL: nil), true, "clearing her profile")
        expected.displayName = nil
        try checkEqual(try await store.account(id: ada.id), expected, "Ada without profile")
        try checkEqual(
            try await store.updateAccountProfile(id: uniqueID("account"), displayName: "X", photoURL: nil), false, "the profile of no account")
    }

    static func concurrentInsertWithIdentity(_ store: any AuthStore) async throws {
        let identity = ProviderIdentity(providerID: "oidc.example", providerUID: uniqueID("sub"))
        let accounts = (0..<20).map { index in
            AccountRecord(id: uniqueID("account-\(index)"), email: "\(uniqueID("racer-\(index)"))@example.com", createdAt: Int64(index))
        }
        let outcomes = try await withThrowingTaskGroup(of: AccountInsertion.self) { group in
            for account in accounts {
                group.addTask { try await store.insertAccount(account, identity: identity) }
            }
            return try await group.reduce(into: [AccountInsertion]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .inserted }.count, 1, "insertions that stored the account among 20 concurrent ones")
        let owner = try await store.accountID(providerID: identity.providerID, providerUID: identity.providerUID)
        try check(owner.map { owner in accounts.contains { $0.id == owner } } == true, "the identity has one of the accounts as owner")
        try checkEqual(outcomes.filter { $0 == .identityInUse(accountID: owner!) }.count, 19, "insertions refused naming the winner")
        var stored = 0
        for account in accounts {
            if try await store.account(id: account.id) != nil { stored += 1 }
        }
        try checkEqual(stored, 1, "accounts stored")
    }

    static func concurrentPasswordLink(_ store: any AuthStore) async throws {
        let address = "\(uniqueID("race"))@example.com"
        var accounts: [String] = []
        for index in 0..<20 {
            let account = AccountRecord(id: uniqueID("account-\(index)"), email: nil, createdAt: Int64(index))
            _ = try await store.insertAccount(account)
            accounts.append(account.id)
        }
        let outcomes = try await withThrowingTaskGroup(of: PasswordLink.self) { group in
            for account in accounts {
                group.addTask { try await store.linkPassword(accountID: account, email: address, passwordHash: "$scrypt$\(account)") }
            }
            return try await group.reduce(into: [PasswordLink]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .linked }.count, 1, "links that won among 20 concurrent ones")
        try checkEqual(outcomes.filter { $0 == .emailAlreadyInUse }.count, 19, "links refused for the address")
        let owner = try await store.account(email: address)
        try check(owner.map { accounts.contains($0.id) } == true, "the address has one of the accounts as owner")
        try checkEqual(owner?.passwordHash, owner.map { "$scrypt$\($0.id)" }, "the owner's password hash")
        var withPassword = 0
        for account in accounts {
            if try await store.account(id: account)?.passwordHash != nil { withPassword += 1 }
        }
        try checkEqual(withPassword, 1, "accounts with a password")
    }

    static func concurrentLinkWithEmail(_ store: any AuthStore) async throws {
        let email = AccountEmailUpdate(address: "\(uniqueID("race"))@example.com", isVerified: true)
        var accounts: [String] = []
        for index in 0..<20 {
            let account = AccountRecord(id: uniqueID("account-\(index)"), email: nil, createdAt: Int64(index))
            _ = try await store.insertAccount(account)
            accounts.append(account.id)
        }
        let outcomes = try await withThrowingTaskGroup(of: ProviderLink.self) { group in
            for account in accounts {
                let identity = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
                group.addTask { try await store.linkProviderIdentity(identity, accountID: account, email: email) }
            }
            return try await group.reduce(into: [ProviderLink]()) { $0.append($1) }
        }
        try checkEqual(outcomes.filter { $0 == .linked }.count, 1, "links that won among 20 concurrent ones")
        try checkEqual(outcomes.filter { $0 == .emailAlreadyInUse }.count, 19, "links refused for the address")
        let owner = try await store.account(email: email.address)
        try check(owner.map { accounts.contains($0.id) } == true, "the address has one of the accounts as owner")
        var linked = 0
        for account in accounts {
            if try await !store.providerIdentities(accountID: account).isEmpty { linked += 1 }
        }
        try checkEqual(linked, 1, "accounts with an identity")
    }

    static func deleteAccount(_ store: any AuthStore) async throws {
        let address = "\(uniqueID("ada"))@example.com"
        let google = ProviderIdentity(providerID: "google.com", providerUID: uniqueID("sub"))
        let ada = AccountRecord(id: uniqueID("account"), email: address, createdAt: 1, passwordHash: "hash")
        let bob = AccountRecord(id: uniqueID("account"), email: nil, createdAt: 2)
        _ = try await store.insertAccount(ada, identity: google)
        _ = try await store.insertAccount(bob)
        var factors: [FactorRecord] = []
        for user in [ada.id, bob.id] {
            let started = try Self.pending(user: user)
            try await store.insertPendingEnrollment(started)
            let enrolled = Self.factor(from: started, at: 5, step: nil)
            try checkEqual(try await store.finalizeEnrollment(pendingID: started.id, factor: enrolled, maximumFactorCount: 5), .enrolled, "a factor")
            _ = try await store.recordFailure(key: enrolled.id, at: 5, limit: 5, lockout: 60)
            try await store.insertPendingEnrollment(try Self.pending(user: user))
            try await store.insertSession(
                SessionRecord(
                    id: uniqueID("session"), userID: user, firstFactorProvider: "password", authenticatedAt: 5, secondFactorEnrollmentID: nil,
                    lastUsedAt: 5, expiresAt: 10_000), maximumPerUser: 10)
            try await store.replaceRecoveryCodes(userID: user, digests: [[1, 2, 3], [4, 5, 6]])
            factors.append(enrolled)
        }
        let credential = pendingSignIn(of: ada.id)

        try checkEqual(try await store.deleteAccount(id: ada.id), true, "deleting Ada")
        try checkEqual(try await store.account(id: ada.id), nil, "Ada's account")
        try checkEqual(try await store.account(email: address), nil, "Ada's address")
        try checkEqual(try await store.accountID(providerID: "google.com", providerUID: google.providerUID), nil, "Ada's identity")
        try checkEqual(try await store.providerIdentities(accountID: ada.id), [], "Ada's identities")
        try checkEqual(try await store.factors(userID: ada.id), [], "Ada's factors")
        try checkEqual(try await store.factor(id: factors[0].id), nil, "Ada's factor by id")
        try checkEqual(try await store.failureCounter(key: factors[0].id), .zero, "the failures of Ada's factor")
        try checkEqual(try await store.removeSessions(userID: ada.id, except: nil), 0, "Ada's sessions")
        try checkEqual(try await store.recoveryCodeCount(userID: ada.id), 0, "Ada's recovery codes")
        let context = try await store.pendingSignInContext(credential)
        try checkEqual(context?.account, nil, "the account of Ada's pending sign-in")
        try checkEqual(context?.factors, SignInFactors(totp: [], phone: []), "the factors of Ada's pending sign-in")
        try checkEqual(try await store.deleteAccount(id: ada.id), false, "deleting Ada again")

        // Bob keeps everything; Ada's address and identity are free again.
        try checkEqual(try await store.account(id: bob.id), bob, "Bob's account")
        try checkEqual(try await store.factors(userID: bob.id).map(\.id), [factors[1].id], "Bob's factor")
        try checkEqual(try await store.failureCounter(key: factors[1].id).consecutiveFailures, 1, "the failures of Bob's factor")
        try checkEqual(try await store.recoveryCodeCount(userID: bob.id), 2, "Bob's recovery codes")
        let again = AccountRecord(id: uniqueID("account"), email: address, createdAt: 3)
        try checkEqual(try await store.insertAccount(again, identity: google), .inserted, "a new account with Ada's address and identity")
        try checkEqual(try await store.deleteAccount(id: uniqueID("account")), false, "deleting an account that never was")
    }
}
