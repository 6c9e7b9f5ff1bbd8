import OTPImport
import OTPTestUtilities
import OTPURI

/// A sample's `<sample>.expected.json` (../shared/importer-samples/README.md, "expected.json schema").
struct ExpectedAccounts: Decodable {
    let accounts: [Account]

    struct Account: Decodable {
        let type: String
        let issuer: String
        let name: String
        let secretBase32: String
        let algorithm: String
        let digits: Int
        let period: Int?
        let counter: Int?

        enum CodingKeys: String, CodingKey {
            case type, issuer, name, algorithm, digits, period, counter
            case secretBase32 = "secret_base32"
        }

        var key: AccountKey {
            AccountKey(
                type: type, issuer: issuer, name: name, secret: secretBase32, algorithm: algorithm, digits: digits, period: period,
                counter: counter
            )
        }
    }

    static func load(for sample: String) throws -> ExpectedAccounts {
        try ImporterSamples.decode(from: sample + ".expected.json")
    }
}

/// An account as the expected files describe it, comparable with an imported one.
struct AccountKey: Hashable, Comparable, CustomStringConvertible {
    let type: String
    let issuer: String
    let name: String
    let secret: String
    let algorithm: String
    let digits: Int
    let period: Int?
    let counter: Int?

    init(type: String, issuer: String, name: String, secret: String, algorithm: String, digits: Int, period: Int?, counter: Int?) {
        self.type = type
        self.issuer = issuer
        self.name = name
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.counter = counter
    }

    /// The expected files write no issuer as "", no period for HOTP and no counter for TOTP.
    init(_ account: OTPAuthURI) {
        self.init(
            type: account.kind.rawValue,
            issuer: account.issuer ?? "",
            name: account.accountName,
            secret: account.secret.base32,
            algorithm: account.algorithm.rawValue,
            digits: account.digits,
            period: account.kind == .totp ? Int(account.period) : nil,
            counter: account.counter.map { Int($0) }
        )
    }

    var description: String {
        "\(type) \(issuer):\(name) \(algorithm)/\(digits)/\(period.map(String.init) ?? "-")/\(counter.map(String.init) ?? "-")"
    }

    static func < (lhs: AccountKey, rhs: AccountKey) -> Bool {
        (lhs.description, lhs.secret) < (rhs.description, rhs.secret)
    }
}
