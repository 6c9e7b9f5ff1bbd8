/// The settings of phone (SMS) second factors: Identity Platform's SMS multi-factor state and
/// test phone numbers, and the limits a server must set that Firebase does not document.
public struct PhoneSettings: Sendable, Hashable {
    /// Whether users may enroll phone factors (Identity Platform's `PHONE_SMS` state). Disabling
    /// stops new enrollments and new codes; enrolled users keep their other factors.
    public var isEnabled: Bool
    /// The region (ISO 3166 alpha-2, such as `US`) numbers written in national form are read in;
    /// `nil` accepts only international form (`+<country code><number>`).
    public var defaultRegion: String?
    /// Firebase's fictional numbers: E.164 number → fixed six-digit code. No message is sent to
    /// them, they are exempt from quotas, and they work for enrollment and sign-in alike. Being
    /// fictional (such as `+16505553434`), they need only E.164's shape, not an assigned range.
    public var testPhoneNumbers: [String: String]
    /// Seconds a code stays usable (default 300).
    public var codeLifetime: Int64
    /// Wrong codes one verification id takes before it ends (default 5).
    public var maximumAttempts: Int
    /// The seconds over which the send quotas are allowed (default 3,600): each is a token bucket
    /// that holds its limit and drains one send each `sendWindow` divided by the limit.
    public var sendWindow: Int64
    /// Codes sent to one number per window (default 5); beyond, `tooManyRequests`.
    public var sendsPerNumber: Int
    /// Codes sent for one user per window (default 10); beyond, `tooManyRequests`.
    public var sendsPerUser: Int
    /// Codes sent to one number per day (default 10); beyond, `quotaExceeded`.
    public var dailySendsPerNumber: Int
    /// The message: `{code}` becomes the code, `{app}` ``appName`` (default
    /// `"{code} is your {app} verification code."`).
    public var messageTemplate: String
    /// The name `{app}` stands for in ``messageTemplate``.
    public var appName: String

    /// Creates settings; phone factors are off by default, as they need an ``SMSSender``.
    public init(
        isEnabled: Bool = false,
        defaultRegion: String? = nil,
        testPhoneNumbers: [String: String] = [:],
        codeLifetime: Int64 = 300,
        maximumAttempts: Int = 5,
        sendWindow: Int64 = 3_600,
        sendsPerNumber: Int = 5,
        sendsPerUser: Int = 10,
        dailySendsPerNumber: Int = 10,
        messageTemplate: String = "{code} is your {app} verification code.",
        appName: String = "OTPKit"
    ) {
        self.isEnabled = isEnabled
        self.defaultRegion = defaultRegion
        self.testPhoneNumbers = testPhoneNumbers
        self.codeLifetime = codeLifetime
        self.maximumAttempts = maximumAttempts
        self.sendWindow = sendWindow
        self.sendsPerNumber = sendsPerNumber
        self.sendsPerUser = sendsPerUser
        self.dailySendsPerNumber = dailySendsPerNumber
        self.messageTemplate = messageTemplate
        self.appName = appName
    }

    /// The test number `text` spells (spaces, dashes, dots and parentheses ignored), if it is one:
    /// test numbers are fictional, so they are matched before libphonenumber, which would refuse
    /// numbers in unassigned ranges.
    func testNumber(_ text: String) -> String? {
        guard !testPhoneNumbers.isEmpty, let key = Self.testNumberKey(text), testPhoneNumbers[key] != nil else { return nil }
        return key
    }

    /// `text` in E.164's shape (`+`, a non-zero digit, 7 to 15 digits in all), or `nil`.
    static func testNumberKey(_ text: String) -> String? {
        let compact = text.filter { !" -.()".contains($0) }
        guard compact.first == "+" else { return nil }
        let digits = compact.dropFirst()
        guard (7...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0" else { return nil }
        return compact
    }

    /// The text sent for `code`.
    func message(code: String) -> String {
        messageTemplate.replacing("{app}", with: appName).replacing("{code}", with: code)
    }

    /// Checks every setting.
    func validate() throws(MultiFactorConfigurationError) {
        for (name, value) in [("codeLifetime", codeLifetime), ("sendWindow", sendWindow)] where value <= 0 {
            throw .nonPositiveDuration(name: "phone.\(name)", seconds: value)
        }
        for (name, value) in [
            ("maximumAttempts", maximumAttempts), ("sendsPerNumber", sendsPerNumber), ("sendsPerUser", sendsPerUser),
            ("dailySendsPerNumber", dailySendsPerNumber),
        ] where value < 1 {
            throw .invalidPhoneSetting("\(name) \(value) is below 1: allow at least one")
        }
        guard messageTemplate.contains("{code}") else {
            throw .invalidPhoneSetting("the message template has no {code}: the message must carry the code")
        }
        for (number, code) in testPhoneNumbers {
            guard Self.testNumberKey(number) == number else {
                throw .invalidPhoneSetting("a test phone number is not in E.164 form (+<country code><number>, no spaces)")
            }
            guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .invalidPhoneSetting("the code of a test phone number must be six digits")
            }
        }
    }
}
