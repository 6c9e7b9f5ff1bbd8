public import Foundation

/// A fresh directory for one test's files. A value, not an object removed on release: Swift may
/// release an object after its last use, before the child process that reads the files has run.
/// Callers remove it with `defer { directory.remove() }`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "otpkit-tests") throws {
        path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public var url: URL { URL(fileURLWithPath: path) }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
