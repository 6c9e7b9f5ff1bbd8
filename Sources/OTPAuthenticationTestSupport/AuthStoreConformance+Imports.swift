import OTPAuthentication

// Factors an import brings: stored whole, secrets included, or not at all past the factor limit.
extension AuthStoreConformance {
    static func importedFactors(_ store: any AuthStore) async throws {
        let user = uniqueID("user")
        let totp = [factor(from: try pending(user: user), at: 10, step: nil), factor(from: try pending(user: user), at: 11, step: nil)]
        let phone = [
            PhoneFactorRecord(id: uniqueID("phone"), userID: user, displayName: "Work", enrolledAt: 12, phoneNumber: "+12015550123")
        ]
        try checkEqual(
            try await store.importFactors(userID: user, totp: totp, phone: phone, maximumFactorCount: 3), true, "three factors within a limit of 3")
        try checkEqual(try await store.factors(userID: user), totp, "the imported TOTP factors, secrets included, oldest first")
        try checkEqual(try await store.phoneFactors(userID: user), phone, "the imported phone factor")
        try checkEqual(try await store.factor(id: totp[1].id), totp[1], "an imported factor by id")

        let more = [factor(from: try pending(user: user), at: 13, step: nil)]
        try checkEqual(
            try await store.importFactors(userID: user, totp: more, phone: [], maximumFactorCount: 3), false, "a fourth factor past the limit")
        try checkEqual(try await store.factors(userID: user), totp, "a refused import stores nothing")
        try checkEqual(try await store.factor(id: more[0].id), nil, "the refused factor")
    }
}
