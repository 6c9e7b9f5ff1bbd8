import Foundation
import OTPTestUtilities
import Testing

/// `totp qr` and `totp new`, with zbarimg (Debian's zbar-tools) as the independent QR decoder.
@Suite("totp qr and totp new")
struct QRCommandTests {
    static func decode(_ path: String) async throws -> String {
        // QR codes only: zbar's other symbologies may read a spurious barcode in a QR code's
        // modules, which --raw prints on a line of its own after the QR code's text (one CI
        // rehearsal's otpauth URI did not read back as itself).
        let run = try await ProcessRunner.run(ExternalTool.zbarimg.path(), ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path])
        try #require(run.status == 0, "zbarimg could not read \(path): \(run.stderr)")
        return String(run.stdout.dropLast())
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func int(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    @Test(
        "qr --png writes an image zbarimg decodes to the same text",
        arguments: [
            "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
            "otpauth://totp/ACME%20Co:j%C3%BCrgen@example.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA512&digits=8&period=60",
            "plain text, not a URI",
        ])
    func png(_ text: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for level in ["L", "M", "q", "H"] {
            let file = directory.url.appendingPathComponent("qr-\(level).png").path
            let run = try await TOTPProcess.run(["qr", text, "--png", file, "--ec", level])
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == "", "no drawing when writing a file without --format")
            #expect(try await Self.decode(file) == text)
        }
    }

    @Test("--scale and --margin set the PNG's size; --svg writes an SVG document")
    func sizes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let small = directory.url.appendingPathComponent("small.png").path
        let large = directory.url.appendingPathComponent("large.png").path
        let svg = directory.url.appendingPathComponent("code.svg").path
        // "hello" fits version 1 (21 modules) at level M.
        #expect(try await TOTPProcess.run(["qr", "hello", "--png", small, "--scale", "2", "--margin", "0"]).status == 0)
        #expect(try await TOTPProcess.run(["qr", "hello", "--png", large, "--scale", "10", "--margin", "4", "--svg", svg]).status == 0)
        #expect(try Self.pngSize(small) == (42, 42))
        #expect(try Self.pngSize(large) == (290, 290))
        #expect(try await Self.decode(large) == "hello")
        let document = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(document.contains("<svg") && document.contains("<path"))
    }

    @Test("under umask 022, new --png/--svg and qr --png/--svg write images only their owner can read, also over a 0644 file")
    func imagesArePrivate() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let files = ["new.png", "new.svg", "qr.png", "qr.svg"].map(directory.file)
        try Data().write(to: URL(fileURLWithPath: files[2]))
        chmod(files[2], 0o644)
        let new = try await TOTPProcess.run(["new", "--account", "a", "--no-qr", "--png", files[0], "--svg", files[1]])
        #expect(new.status == 0, "\(new)")
        let qr = try await TOTPProcess.run(["qr", "otpauth://totp/a?secret=JBSWY3DPEHPK3PXP", "--png", files[2], "--svg", files[3]])
        #expect(qr.status == 0, "\(qr)")
        for file in files {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
        }
    }

    @Test("qr draws in each text format; - reads standard input")
    func formats() async throws {
        let utf8 = try await TOTPProcess.run(["qr", "hello"])
        #expect(utf8.status == 0)
        let inverted = try await TOTPProcess.run(["qr", "hello", "--format", "utf8-inverted"])
        let ascii = try await TOTPProcess.run(["qr", "hello", "--format", "ascii"])
        let ansi = try await TOTPProcess.run(["qr", "hello", "--format", "ansi"])
        // Version 1: 21 modules plus a 4-module quiet zone on each side.
        let picture = try #require(TerminalDrawing.modules(ascii: ascii.stdout), "\(ascii)")
        #expect(picture.count == 29 && picture.allSatisfy { $0.count == 29 })
        #expect(picture.first?.contains(true) == false && picture.last?.contains(true) == false, "a light quiet zone")
        #expect((4...10).allSatisfy { picture[4][$0] && picture[10][$0] && picture[$0][4] && picture[$0][10] }, "the top-left finder pattern")
        // Every format draws the same symbol.
        #expect(TerminalDrawing.modules(halfBlocks: utf8.stdout, inverted: false) == picture, "\(utf8)")
        #expect(TerminalDrawing.modules(halfBlocks: inverted.stdout, inverted: true) == picture, "\(inverted)")
        #expect(TerminalDrawing.modules(ansi: ansi.stdout) == picture, "\(ansi)")
        let stdin = try await TOTPProcess.run(["qr", "-", "--format", "ascii"], input: "hello\n")
        #expect(stdin.stdout == ascii.stdout)
    }

    @Test("qr errors: empty text, too long, bad options, unwritable file")
    func errors() async throws {
        let empty = try await TOTPProcess.run(["qr", ""])
        #expect(empty.status == 64 && empty.stderr == "totp qr: nothing to encode: the text is empty\n")
        let long = try await TOTPProcess.run(["qr", String(repeating: "x", count: 3000), "--ec", "H"])
        #expect(long.status == 64)
        #expect(long.stderr == "totp qr: text too long for a QR code: 3000 bytes, at most 1273 at error correction H (a lower level holds more)\n")
        let scale = try await TOTPProcess.run(["qr", "hello", "--png", "/tmp/never-written.png", "--scale", "0"])
        #expect(scale.status == 64 && scale.stderr == "totp qr: invalid scale 0: use 1 to 100\n", "\(scale)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.png"))
        let level = try await TOTPProcess.run(["qr", "hello", "--ec", "X"])
        #expect(level.status == 64 && level.stderr.hasPrefix("totp qr: The value 'X' is invalid for '--ec <level>'"))
        let format = try await TOTPProcess.run(["qr", "hello", "--format", "sixel"])
        #expect(format.status == 64 && format.stderr.hasPrefix("totp qr: The value 'sixel' is invalid for '--format <format>'"))
        let unwritable = try await TOTPProcess.run(["qr", "hello", "--png", "/nonexistent/dir/code.png"])
        #expect(unwritable.status == 73)
        #expect(unwritable.stderr == "totp qr: cannot write '/nonexistent/dir/code.png': No such file or directory\n")
    }

    @Test("new prints a secret, its URI, a QR drawing and the current code")
    func new() async throws {
        let start = ExternalTool.unixTime()
        let run = try await TOTPProcess.run(["new", "--issuer", "Demo", "--account", "you@example.com"])
        let end = ExternalTool.unixTime()
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count > 10)
        #expect(lines[0].hasPrefix("secret: ") && lines[0].count == "secret: ".count + 32)
        let secret = String(lines[0].dropFirst("secret: ".count))
        #expect(lines[1] == "uri:    otpauth://totp/Demo:you@example.com?secret=\(secret)&issuer=Demo&algorithm=SHA1&digits=6&period=30")
        // The URI is 121 bytes: version 7 at M, 45 modules and the quiet zone, 53 rows in 27 lines.
        let drawing = lines.dropFirst(3).prefix { !$0.isEmpty }.joined(separator: "\n")
        let picture = try #require(TerminalDrawing.modules(halfBlocks: drawing, inverted: false), "\(run)")
        #expect(picture.count == 53 && picture.allSatisfy { $0.count == 53 }, "\(run)")
        #expect((4...10).allSatisfy { picture[4][$0] && picture[10][$0] && picture[$0][4] && picture[$0][10] }, "the top-left finder pattern")
        let codeLine = try #require(lines.first { $0.hasPrefix("code:   ") })
        let code = String(codeLine.dropFirst("code:   ".count).prefix(6))
        // oathtool's code for a step of the run: a loaded machine may take longer than a step.
        #expect(try await ExternalTool.oathtoolCodes(base32: secret, from: start, through: end).contains(code), "\(run)")
    }

    @Test("new --json, --png, --bytes, --algorithm, --digits, --period")
    func newJSON() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("new.png").path
        let run = try await TOTPProcess.run([
            "new", "--issuer", "ACME Co", "--account", "alice", "--algorithm", "sha256",
            "--digits", "8", "--period", "60", "--bytes", "40", "--json", "--png", file,
        ])
        #expect(run.status == 0, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: String])
        #expect(Set(object.keys) == ["secret", "uri"])
        #expect(run.stdout.hasPrefix(#"{"secret":""#))
        let secret = try #require(object["secret"])
        #expect(secret.count == 64)  // 40 bytes in unpadded Base32
        let uri = try #require(object["uri"])
        #expect(uri == "otpauth://totp/ACME%20Co:alice?secret=\(secret)&issuer=ACME%20Co&algorithm=SHA256&digits=8&period=60")
        #expect(try await Self.decode(file) == uri)
        let sha512 = try await TOTPProcess.run(["new", "--account", "a", "--algorithm", "sha512", "--json"])
        let sha512Secret = try #require((try JSONSerialization.jsonObject(with: Data(sha512.stdout.utf8)) as? [String: String])?["secret"])
        #expect(sha512Secret.count == 103)  // 64 bytes
        let svg = directory.url.appendingPathComponent("new.svg").path
        let withSVG = try await TOTPProcess.run(["new", "--account", "a", "--svg", svg, "--format", "ascii"])
        #expect(withSVG.status == 0 && withSVG.stdout.contains("##"), "--format draws even when writing a file")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<svg"))
        let noQR = try await TOTPProcess.run(["new", "--account", "a", "--no-qr"])
        #expect(noQR.stdout.split(separator: "\n").count == 3)
        #expect(!noQR.stdout.contains("▀"))
    }

    @Test("new errors")
    func newErrors() async throws {
        let missing = try await TOTPProcess.run(["new", "--issuer", "Demo"])
        #expect(missing.status == 64 && missing.stderr == "totp new: Missing expected argument '--account <name>'\n")
        let bytes = try await TOTPProcess.run(["new", "--account", "a", "--bytes", "5"])
        #expect(bytes.status == 64 && bytes.stderr == "totp new: invalid secret length 5: use 10 to 1024 bytes\n")
        let digits = try await TOTPProcess.run(["new", "--account", "a", "--digits", "12"])
        #expect(digits.status == 64 && digits.stderr == "totp new: invalid number of digits 12: use 6 to 10\n")
        let empty = try await TOTPProcess.run(["new", "--account", ""])
        #expect(empty.status == 64 && empty.stderr == "totp new: --account must not be empty\n")
        #expect(missing.stdout == "" && bytes.stdout == "" && digits.stdout == "")
    }
}
