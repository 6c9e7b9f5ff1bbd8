import Foundation
public import OTPCore

extension ExternalTool {
    /// A run of oathtool that did not print a code.
    public struct OATHToolFailure: Error, CustomStringConvertible {
        public let output: ProcessOutput
        public var description: String { "oathtool failed: \(output)" }
    }

    /// The name oathtool's `--totp=` takes for `algorithm`, or `nil` for a hash oathtool does not
    /// know: a new hash does not compile until it is decided here, and cross-checks draw only from
    /// ``oathtoolAlgorithms``.
    public static func oathtoolName(of algorithm: OTPAlgorithm) -> String? {
        switch algorithm {
        case .sha1: "sha1"
        case .sha256: "sha256"
        case .sha512: "sha512"
        }
    }

    /// The hashes oathtool can cross-check.
    public static var oathtoolAlgorithms: [OTPAlgorithm] {
        OTPAlgorithm.allCases.filter { oathtoolName(of: $0) != nil }
    }

    /// The Unix time now, for ``oathtoolCodes(base32:from:through:)``.
    public static func unixTime() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// oathtool's codes (six digits, SHA-1, 30-second steps) of a Base32 secret for every step from
    /// Unix time `start` through `end`: the codes a program run between the two may have shown. A
    /// loaded machine can stretch a run over several steps, so tests accept any of them rather
    /// than the current code and the one before.
    public static func oathtoolCodes(base32 secret: String, from start: Int64, through end: Int64) async throws -> Set<String> {
        var codes: Set<String> = []
        for step in (start / 30)...(end / 30) {
            let run = try await ProcessRunner.run(oathtool.path(), ["--totp", "--base32", "-N", "@\(step * 30)", secret])
            guard run.status == 0, run.stdout.count == 7 else { throw OATHToolFailure(output: run) }
            codes.insert(String(run.stdout.dropLast()))
        }
        return codes
    }
}
