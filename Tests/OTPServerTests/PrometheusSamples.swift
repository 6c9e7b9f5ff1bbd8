import Testing

/// The samples of a Prometheus text exposition (`GET /metrics`), parsed as a scraper reads them:
/// `name{label="value",…} value` per line, comments and blank lines skipped.
struct PrometheusSamples {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let samples: [Sample]

    /// Parses `text`; a line that is not a sample fails the test, naming the line.
    init(parsing text: String) throws {
        var samples: [Sample] = []
        for line in text.split(separator: "\n") where !line.isEmpty && !line.hasPrefix("#") {
            samples.append(try #require(Self.sample(line), "not a Prometheus sample: \(line)"))
        }
        self.samples = samples
    }

    /// The value of the one sample named `name` whose labels include `labels`; `nil` when there is
    /// none, and a failed test when several match.
    func value(_ name: String, _ labels: [String: String] = [:]) throws -> Double? {
        let matching = samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        try #require(matching.count <= 1, "\(matching.count) samples of \(name) match \(labels)")
        return matching.first?.value
    }

    private static func sample(_ line: Substring) -> Sample? {
        var rest = line[...]
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard !name.isEmpty else { return nil }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let key = rest.prefix { $0 != "=" }
                rest = rest.dropFirst(key.count)
                guard rest.hasPrefix("=\"") else { return nil }
                rest = rest.dropFirst(2)
                var value = ""
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.first {
                        rest = rest.dropFirst()
                        value.append(escaped == "n" ? "\n" : escaped)
                    } else {
                        value.append(character)
                    }
                }
                guard rest.first == "\"" else { return nil }
                rest = rest.dropFirst()
                labels[String(key)] = value
                if rest.first == "," { rest = rest.dropFirst() }
                guard !rest.isEmpty else { return nil }
            }
            rest = rest.dropFirst()
        }
        // The value, then an optional timestamp.
        guard let text = rest.split(separator: " ").first, let value = Double(text) ?? Self.special(text) else { return nil }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func special(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: nil
        }
    }
}
