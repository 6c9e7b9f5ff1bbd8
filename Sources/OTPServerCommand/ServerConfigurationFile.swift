internal import Foundation

/// The `--config` file: one JSON object whose keys are the long options (`"db"`, `"project-id"`,
/// `"api-key"`, …) and whose values have the option's type — a string, a number for `port`,
/// `true` or `false` for `emulator`, and an array of strings (or one string) for the repeatable
/// options.
///
/// JSON rather than TOML or YAML: Foundation reads it, so the server needs no parser of its own,
/// and every value an option takes is a string, a number or a list of them.
enum ServerConfigurationFile {
    /// The settings in the file at `path`.
    ///
    /// - Throws: ``ServerConfigurationError`` naming the file, and the line of the key when it is
    ///   a key's fault.
    static func load(path: String) throws(ServerConfigurationError) -> ServerSettingsLayer {
        let data: Data
        do {
            data = try OperatorFile.contents(path)
        } catch {
            throw .unreadable(file: path, reason: error.reason)
        }
        return try parse(data, file: path)
    }

    /// The settings `data` holds; `file` names it in errors.
    static func parse(_ data: Data, file: String) throws(ServerConfigurationError) -> ServerSettingsLayer {
        let text = String(decoding: data, as: UTF8.self)
        do {
            return try JSONDecoder().decode(Contents.self, from: data).layer
        } catch let error as KeyError {
            switch error {
            case .unknown(let key): throw .unknownKey(file: file, key: key, line: line(ofKey: key, in: text))
            case .wrongType(let key, let expected): throw .wrongType(file: file, key: key, line: line(ofKey: key, in: text), expected: expected)
            }
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw .notAnObject(file: file)
        } catch {
            let place = syntaxErrorPlace(data)
            throw .notJSON(file: file, line: place?.line, column: place?.column)
        }
    }

    /// Where JSON syntax fails in `data`, as line and column (from 1). JSONDecoder does not say;
    /// JSONSerialization says "around character N" (a byte offset), and only the number is taken
    /// from its message, never the text there.
    static func syntaxErrorPlace(_ data: Data) -> (line: Int, column: Int)? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            guard let match = said.firstMatch(of: /character (\d+)/), let offset = Int(match.1), offset <= data.count else { return nil }
            let before = data.prefix(offset)
            let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return (line, column)
        }
    }

    /// The line (from 1) of the first `"key":` in `text`, if it is there as written.
    static func line(ofKey key: String, in text: String) -> Int? {
        let quoted = "\"" + key + "\""
        var searched = text[...]
        while let found = searched.range(of: quoted) {
            let after = text[found.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            if after.first == ":" {
                return text[..<found.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            }
            searched = text[found.upperBound...]
        }
        return nil
    }

    /// What decoding a key refused, before the file's line is known.
    private enum KeyError: Error {
        case unknown(String)
        case wrongType(String, expected: String)
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The object, key by key through ``ServerOption/all``: JSONDecoder keeps `true` from passing
    /// for a number and `1` for a flag.
    private struct Contents: Decodable {
        var layer = ServerSettingsLayer()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            // Sorted, so that of several faults the same one is reported every time.
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                guard let option = ServerOption.named(key.stringValue) else { throw KeyError.unknown(key.stringValue) }
                switch option.kind {
                case .text(let path):
                    layer[keyPath: path] = try value(String.self, key, in: container, expected: "a string")
                case .texts(let path):
                    if let one = try? container.decode(String.self, forKey: key) {
                        layer[keyPath: path] = [one]
                    } else {
                        layer[keyPath: path] = try value([String].self, key, in: container, expected: "an array of strings (or one string)")
                    }
                case .number(let path):
                    layer[keyPath: path] = try value(Int.self, key, in: container, expected: "a whole number")
                case .flag(let path):
                    layer[keyPath: path] = try value(Bool.self, key, in: container, expected: "true or false")
                }
            }
        }

        private func value<T: Decodable>(_ type: T.Type, _ key: Key, in container: KeyedDecodingContainer<Key>, expected: String) throws -> T {
            do {
                return try container.decode(T.self, forKey: key)
            } catch {
                throw KeyError.wrongType(key.stringValue, expected: expected)
            }
        }
    }
}
