extension ServerSettingsLayer {
    /// The variable that names the configuration file when `--config` is not given.
    static let configVariable = ServerOption.environmentPrefix + "CONFIG"

    /// The settings the `OTPKIT_SERVER_*` variables of `environment` give. An empty variable is
    /// treated as unset; lists are separated by whitespace.
    ///
    /// - Throws: ``ServerConfigurationError/badEnvironment(variable:expected:)`` for a value its
    ///   option cannot take, or a variable of that prefix that is no option (a misspelt one would
    ///   otherwise be ignored without a word).
    init(environment: [String: String]) throws(ServerConfigurationError) {
        self.init()
        for variable in environment.keys.sorted() where variable.hasPrefix(ServerOption.environmentPrefix) {
            guard let text = environment[variable], !text.isEmpty, variable != Self.configVariable else { continue }
            guard let option = ServerOption.all.first(where: { $0.environmentVariable == variable }) else {
                let known = ServerOption.all.map(\.environmentVariable) + [Self.configVariable]
                throw .badEnvironment(variable: variable, expected: "one of the server's variables, or unset: \(known.joined(separator: ", "))")
            }
            switch option.kind {
            case .text(let path):
                self[keyPath: path] = text
            case .texts(let path):
                self[keyPath: path] = text.split(whereSeparator: \.isWhitespace).map(String.init)
            case .number(let path):
                guard let number = Int(text) else { throw .badEnvironment(variable: variable, expected: "a whole number") }
                self[keyPath: path] = number
            case .flag(let path):
                switch text.lowercased() {
                case "1", "true", "yes": self[keyPath: path] = true
                case "0", "false", "no": self[keyPath: path] = false
                default: throw .badEnvironment(variable: variable, expected: "1, true or yes, or 0, false or no")
                }
            }
        }
    }
}
