import Foundation

/// A program from a Debian package that a test checks OTPKit against. Tests never skip when one
/// is missing: they fail with the package to install, which `bash .ci/install` installs.
public struct ExternalTool: Sendable {
    public let name: String
    public let debianPackage: String

    public init(_ name: String, debianPackage: String) {
        self.name = name
        self.debianPackage = debianPackage
    }

    public static let oathtool = ExternalTool("oathtool", debianPackage: "oathtool")
    public static let zbarimg = ExternalTool("zbarimg", debianPackage: "zbar-tools")
    public static let rsvgConvert = ExternalTool("rsvg-convert", debianPackage: "librsvg2-bin")
    public static let python3 = ExternalTool("python3", debianPackage: "python3")
    /// Debian's own interpreter: the python3-* packages `.ci/install` installs are visible to it
    /// alone, not to a pyenv or virtualenv `python3` that may come first on PATH.
    public static let debianPython3 = ExternalTool("/usr/bin/python3", debianPackage: "python3")
    public static let script = ExternalTool("script", debianPackage: "bsdutils")
    public static let timeout = ExternalTool("timeout", debianPackage: "coreutils")
    public static let setpriv = ExternalTool("setpriv", debianPackage: "util-linux")
    /// Google's own protobuf decoder, for the Google Authenticator migration payloads OTPImport writes.
    public static let protoc = ExternalTool("protoc", debianPackage: "protobuf-compiler")
    /// msmtp, a sendmail-compatible SMTP client: the program behind the mail command sender's test.
    public static let msmtp = ExternalTool("/usr/bin/msmtp", debianPackage: "msmtp")

    /// PostgreSQL's own client, which restores what `pg_dump` wrote.
    public static let psql = ExternalTool("psql", debianPackage: "postgresql-client")

    public struct Missing: Error, CustomStringConvertible {
        public let tool: ExternalTool
        public var description: String {
            "\(tool.name) is not installed: install the Debian package \(tool.debianPackage) (`bash .ci/install` or `bash Tests/test.sh` does)"
        }
    }

    /// The absolute path of the tool on PATH, or the tool's own name when that is an absolute path.
    public func path() throws -> String {
        if name.hasPrefix("/") {
            guard FileManager.default.isExecutableFile(atPath: name) else { throw Missing(tool: self) }
            return name
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(tool: self)
    }
}
