import OTPCore
import OTPTestUtilities
import OTPURI

/// The cases in TestVectors/otpauth-uris.json.
struct URIFixtures: Decodable {
    struct Model: Decodable {
        let kind: String
        let issuer: String?
        let account: String
        let secret: String
        let algorithm: String
        let digits: Int
        let period: Int64
        let counter: String?
        let parameters: [[String]]?

        func build() throws -> OTPAuthURI {
            try OTPAuthURI(
                kind: OTPAuthURI.Kind(rawValue: kind)!,
                issuer: issuer,
                accountName: account,
                secret: OTPSecret(base32: secret),
                algorithm: OTPAlgorithm(rawValue: algorithm)!,
                digits: digits,
                period: period,
                counter: counter.map { UInt64($0)! },
                additionalParameters: (parameters ?? []).map { OTPAuthURI.Parameter(name: $0[0], value: $0[1]) }
            )
        }
    }

    struct Accepted: Decodable, CustomStringConvertible {
        let name: String
        let modes: [String]
        let uri: String
        let expect: Model
        var description: String { name }
    }

    struct Rejected: Decodable, CustomStringConvertible {
        let name: String
        let modes: [String]
        let uri: String
        let error: String
        let message: String
        var description: String { name }
    }

    struct Formatted: Decodable, CustomStringConvertible {
        let name: String
        let kind: String
        let issuer: String?
        let account: String
        let secret: String
        let algorithm: String
        let digits: Int
        let period: Int64
        let counter: String?
        let parameters: [[String]]?
        let uri: String
        var description: String { name }

        var model: Model {
            Model(
                kind: kind, issuer: issuer, account: account, secret: secret, algorithm: algorithm,
                digits: digits, period: period, counter: counter, parameters: parameters)
        }
    }

    struct Firebase: Decodable, CustomStringConvertible {
        let name: String
        let key: String
        let account: String
        let issuer: String
        let algorithm: String
        let codeLength: Int
        let url: String
        var description: String { name }
    }

    let accepted: [Accepted]
    let rejected: [Rejected]
    let formatted: [Formatted]
    let firebase: [Firebase]

    /// TestVectors/otpauth-uris.json, read afresh: a broken file fails the tests that read it.
    static func load() throws -> URIFixtures {
        try Fixture.decode(from: "TestVectors/otpauth-uris.json")
    }

    static func modes(_ names: [String]) -> [OTPAuthURI.ParsingMode] {
        names.map { $0 == "strict" ? .strict : .lenient }
    }
}

extension OTPURIError {
    /// The case name, as the fixtures spell it.
    var caseName: String {
        switch self {
        case .invalidScheme: "invalidScheme"
        case .invalidType: "invalidType"
        case .missingAccountName: "missingAccountName"
        case .ambiguousLabel: "ambiguousLabel"
        case .malformedPercentEncoding: "malformedPercentEncoding"
        case .invalidUTF8: "invalidUTF8"
        case .malformedParameter: "malformedParameter"
        case .duplicateParameter: "duplicateParameter"
        case .missingSecret: "missingSecret"
        case .emptySecret: "emptySecret"
        case .invalidSecret: "invalidSecret"
        case .unknownAlgorithm: "unknownAlgorithm"
        case .invalidDigits: "invalidDigits"
        case .invalidPeriod: "invalidPeriod"
        case .invalidCounter: "invalidCounter"
        case .missingCounter: "missingCounter"
        case .issuerMismatch: "issuerMismatch"
        case .reservedParameterName: "reservedParameterName"
        }
    }
}
