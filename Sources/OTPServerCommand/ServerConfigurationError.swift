/// Why the `--config` file or an `OTPKIT_SERVER_*` variable cannot be used: one line naming the
/// file and line, or the variable, and what to write instead. Never a value, which may be an API
/// key or a password in a URL.
enum ServerConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read.
    case unreadable(file: String, reason: String)
    /// The file is not JSON; the line and column where the parser stopped, when it said.
    case notJSON(file: String, line: Int?, column: Int?)
    /// The file's JSON is not an object.
    case notAnObject(file: String)
    /// A key that is no option.
    case unknownKey(file: String, key: String, line: Int?)
    /// A value of the wrong type.
    case wrongType(file: String, key: String, line: Int?, expected: String)
    /// An environment variable whose value cannot be read as its option's type.
    case badEnvironment(variable: String, expected: String)

    var description: String {
        let text =
            switch self {
            case .unreadable(let file, let reason):
                "cannot read the configuration file \(file): \(reason)"
            case .notJSON(let file, let line?, let column?):
                "\(file):\(line):\(column): the configuration file is not valid JSON: write one JSON object of options"
            case .notJSON(let file, _, _):
                "\(file): the configuration file is not valid JSON: write one JSON object of options"
            case .notAnObject(let file):
                #"\#(file): the configuration file must be one JSON object of options, such as {"db": "otpkit.sqlite"}"#
            case .unknownKey(let file, let key, let line):
                "\(Self.place(file, line)): unknown key \"\(key.prefix(60))\": the keys are the long options without dashes in front (\(ServerOption.all.map(\.name).joined(separator: ", ")))"
            case .wrongType(let file, let key, let line, let expected):
                "\(Self.place(file, line)): \"\(key)\" must be \(expected)"
            case .badEnvironment(let variable, let expected):
                "$\(variable) must be \(expected)"
            }
        return "otpkit-server: " + text
    }

    private static func place(_ file: String, _ line: Int?) -> String {
        line.map { "\(file):\($0)" } ?? file
    }
}
