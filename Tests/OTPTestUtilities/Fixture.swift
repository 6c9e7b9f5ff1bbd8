public import Foundation

/// Files of the repository the tests read: TestVectors/ and the fuzzer's regression inputs.
/// Found from this source file's path, so they load whatever the working directory.
public enum Fixture {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public struct Unreadable: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot read the fixture \(path): \(reason)" }
    }

    /// The URL of `relativePath` (such as "TestVectors/rfc4226-hotp.json") in the repository.
    public static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent(relativePath)
    }

    public static func data(_ relativePath: String) throws -> Data {
        let url = url(relativePath)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw Unreadable(path: url.path, reason: "\(error)")
        }
    }

    public static func decode<Value: Decodable>(_ type: Value.Type = Value.self, from relativePath: String) throws -> Value {
        let data = try data(relativePath)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw Unreadable(path: url(relativePath).path, reason: "\(error)")
        }
    }

    /// The names of the files in a directory of the repository, sorted; an error when there are
    /// none, so that tests parameterized over them cannot pass by running zero cases.
    public static func fileNames(in relativePath: String) throws -> [String] {
        let path = url(relativePath).path
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw Unreadable(path: path, reason: "\(error)")
        }
        guard !names.isEmpty else { throw Unreadable(path: path, reason: "the directory is empty") }
        return names.sorted()
    }
}
