public import Foundation

/// Other authenticators' export files, kept outside the repository in `../shared/importer-samples/`
/// (they are other projects' files under their own licenses, never copied in).
public enum ImporterSamples {
    /// The samples folder, beside the repository.
    public static let root = Fixture.repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("importer-samples")

    /// The folder is missing: a test that needs it fails with this rather than passing on nothing.
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String {
            "the importer samples are missing: expected them in \(path) (../shared/importer-samples/ beside the repository)"
        }
    }

    /// The URL of a sample such as "aegis/aegis_plain.json".
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The bytes of a sample; an error naming the folder when the samples are missing.
    public static func data(_ relativePath: String) throws -> Data {
        try requireRoot()
        let url = url(relativePath)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw Fixture.Unreadable(path: url.path, reason: "\(error)")
        }
    }

    /// A sample's JSON decoded, such as its "aegis/aegis_plain.json.expected.json".
    public static func decode<Value: Decodable>(_ type: Value.Type = Value.self, from relativePath: String) throws -> Value {
        let data = try data(relativePath)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw Fixture.Unreadable(path: url(relativePath).path, reason: "\(error)")
        }
    }

    /// The files of a samples folder, sorted, without the `.expected.json` files.
    public static func sampleNames(in folder: String) throws -> [String] {
        try requireRoot()
        let path = url(folder).path
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasSuffix(".expected.json") }.sorted()
        } catch {
            throw Fixture.Unreadable(path: path, reason: "\(error)")
        }
    }

    /// Throws ``Missing`` when the samples folder does not exist.
    public static func requireRoot() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Missing(path: root.path)
        }
    }
}
