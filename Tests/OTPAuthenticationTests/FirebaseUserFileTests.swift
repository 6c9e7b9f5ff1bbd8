import Foundation
import OTPAuthentication
import Testing

/// The two file formats of `firebase auth:export`, read into user records and then into accounts.
@Suite("firebase-tools' export files")
struct FirebaseUserFileTests {
    /// A CSV row of firebase-tools' 52 columns with `values` at their columns.
    static func row(_ values: [Int: String]) -> String {
        (0..<52).map { values[$0] ?? "" }.joined(separator: ",") + ","
    }

    @Test("CSV: quoted fields with commas, doubled quotes and line breaks, CRLF, trimmed fields, providers at both column groups")
    func readsCSV() throws {
        let first = Self.row([
            0: "u-1", 1: " ada@example.com ", 2: "TRUE", 5: "\"Ada, \"\"the first\"\"\nLovelace\"", 7: "g-1", 8: "ada@gmail.com", 23: "1700000000000",
            24: "1700000500000", 25: "+15555550100", 26: "false", 27: "\"{\"\"admin\"\":true}\"", 32: "m-1", 48: "y-1",
        ])
        let second = Self.row([0: "u-2"])
        let records = try FirebaseUserRecord.records(csv: Array((first + "\r\n" + second + "\n\n").utf8))
        #expect(records.count == 2)
        let ada = try #require(records.first)
        #expect(ada.localId == "u-1" && ada.email == "ada@example.com" && ada.emailVerified == true)
        #expect(ada.displayName == "Ada, \"the first\"\nLovelace")
        #expect(ada.createdAt?.value == 1_700_000_000_000 && ada.lastLoginAt?.value == 1_700_000_500_000)
        #expect(ada.phoneNumber == "+15555550100" && ada.disabled == false && ada.customAttributes == #"{"admin":true}"#)
        #expect(ada.providerUserInfo?.map(\.providerId) == ["google.com", "microsoft.com", "yahoo.com"])
        #expect(ada.providerUserInfo?.map(\.rawId) == ["g-1", "m-1", "y-1"])
        #expect(ada.providerUserInfo?.first?.email == "ada@gmail.com")
        let bob = records[1]
        #expect(bob.localId == "u-2" && bob.email == nil && bob.emailVerified == nil && bob.providerUserInfo == nil)

        let account = try ImportedAccount(firebase: ada, hashing: nil)
        #expect(account.createdAt == 1_700_000_000 && account.lastSignInAt == 1_700_000_500)
        #expect(account.identities.map(\.providerID) == ["google.com", "microsoft.com", "yahoo.com"])
    }

    @Test("CSV: what is malformed is named with its line")
    func refusesMalformedCSV() {
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "line 2: a quoted field is not closed")) {
            try FirebaseUserRecord.records(csv: Array("u-1\nu-2,\"open\n".utf8))
        }
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "line 1: text after a closing quote; double a quote inside a quoted field")) {
            try FirebaseUserRecord.records(csv: Array("u-1,\"a\"b\n".utf8))
        }
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "line 1: emailVerified is yes, not true or false")) {
            try FirebaseUserRecord.records(csv: Array("u-1,a@example.com,yes\n".utf8))
        }
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "line 1: createdAt is not a whole number of milliseconds")) {
            try FirebaseUserRecord.records(csv: Array(Self.row([0: "u-1", 23: "yesterday"]).utf8))
        }
    }

    @Test("JSON: firebase-tools' lastSignedInAt and string times; a wrong type is named by its path")
    func readsJSON() throws {
        let records = try FirebaseUserRecord.records(
            json: Array(#"{"users":[{"localId":"u-1","lastSignedInAt":"1700000500000","createdAt":1700000000000,"disabled":true}]}"#.utf8))
        let account = try ImportedAccount(firebase: try #require(records.first), hashing: nil)
        #expect(account.lastSignInAt == 1_700_000_500 && account.createdAt == 1_700_000_000 && account.isDisabled)
        #expect(
            throws: AdminRequestError(
                "INVALID_ARGUMENT", "the file is not the JSON of firebase auth:export: users[0].providerUserInfo[1].rawId has the wrong type")
        ) {
            try FirebaseUserRecord.records(json: Array(#"{"users":[{"localId":"u","providerUserInfo":[{},{"rawId":7}]}]}"#.utf8))
        }
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "the file is not the JSON of firebase auth:export: users is missing")) {
            try FirebaseUserRecord.records(json: Array("{}".utf8))
        }
    }

    @Test("a password hash without an algorithm, or with one it does not fit, is refused naming the field")
    func refusesHashesThatDoNotFit() throws {
        var record = FirebaseUserRecord()
        record.localId = "u-1"
        record.email = "ada@example.com"
        record.passwordHash = "aGFzaA=="
        record.salt = "c2FsdA=="
        #expect(throws: AdminRequestError.self) { try ImportedAccount(firebase: record, hashing: nil) }
        var parameters = FirebaseImportHashing.Parameters()
        parameters.algorithm = "STANDARD_SCRYPT"
        parameters.cpuMemCost = 16384
        parameters.blockSize = 8
        parameters.parallelization = 1
        parameters.dkLen = 32
        let hashing = try FirebaseImportHashing(parameters, configured: PasswordSettings())
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "the passwordHash has 4 bytes and dkLen says 32")) {
            try ImportedAccount(firebase: record, hashing: hashing)
        }
        record.passwordHash = "not base64!"
        #expect(throws: AdminRequestError("INVALID_ARGUMENT", "passwordHash must be base64")) {
            try ImportedAccount(firebase: record, hashing: hashing)
        }
    }
}
