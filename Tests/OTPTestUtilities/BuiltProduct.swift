import Foundation

/// Executables of this package. `swift test` builds every product and runs the test bundle from
/// the same build directory, so they sit beside the running test executable.
public enum BuiltProduct {
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public let searched: String
        public var description: String {
            "no \(name) executable beside the tests (searched from \(searched)): run `swift build` (swift test and Tests/test.sh build it)"
        }
    }

    /// The path of the executable `name`; `overrideVariable`, when set in the environment, names
    /// another binary instead, for testing an installed one.
    public static func path(_ name: String, overrideVariable: String? = nil) throws -> String {
        if let overrideVariable, let path = ProcessInfo.processInfo.environment[overrideVariable], !path.isEmpty {
            return path
        }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // Where the bundle is a directory (`X.xctest/Contents/MacOS/X`), the products are further up.
        while directory.path != "/", directory.lastPathComponent != ".build" {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw Missing(name: name, searched: testBinary.deletingLastPathComponent().path)
    }
}
