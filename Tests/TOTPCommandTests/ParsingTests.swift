import ArgumentParser
import OTPCommandSupport
import Testing
@testable import TOTPCommand

/// What the parser makes of arguments, checked in-process: no process to start, and the parsed
/// values rather than their effects.
@Suite("Parsing")
struct ParsingTests {
    static func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        try #require(try TOTPTool.parseAsRoot(arguments) as? Command, "\(arguments) did not select \(Command.self)")
    }

    @Test(
        "qr --format takes every QR style word, the same words totp enroll --qr takes",
        arguments: QRStyle.allCases)
    func qrFormats(_ style: QRStyle) throws {
        #expect(try Self.parse(["qr", "hello", "--format", style.rawValue], as: TOTPTool.QR.self).qr.format == style)
        #expect(try Self.parse(["new", "--account", "a", "--format", style.rawValue], as: TOTPTool.New.self).qr.format == style)
    }

    @Test("qr without --format leaves the choice to the command (utf8, or none when writing files)")
    func qrDefault() throws {
        #expect(try Self.parse(["qr", "hello"], as: TOTPTool.QR.self).qr.format == nil)
    }

    @Test("an unknown format is a usage error listing the words", arguments: ["sixel", "UTF8", ""])
    func unknownFormat(_ word: String) {
        do {
            _ = try TOTPTool.parseAsRoot(["qr", "hello", "--format", word])
            Issue.record("'\(word)' was accepted")
        } catch {
            #expect(TOTPTool.exitCode(for: error).rawValue == ExitStatus.usage.rawValue)
            #expect(TOTPTool.message(for: error).contains("'utf8', 'utf8-inverted', 'ansi', 'ascii' or 'none'"), "\(TOTPTool.message(for: error))")
        }
    }

    @Test("the forwarded commands capture every argument for totp-enrollment")
    func forwarded() throws {
        let factors = try Self.parse(["factors", "--db", "x.sqlite", "--user", "a", "--json"], as: TOTPTool.Factors.self)
        #expect(factors.arguments == ["--db", "x.sqlite", "--user", "a", "--json"])
        #expect(TOTPTool.Enrollment.handles(["factors", "--json"]))
        let recovery = try Self.parse(["recovery-codes", "--generate", "--code", "123456"], as: TOTPTool.RecoveryCodes.self)
        #expect(recovery.arguments == ["--generate", "--code", "123456"])
        #expect(TOTPTool.Enrollment.handles(["recovery-codes"]))
        #expect(!TOTPTool.Enrollment.handles(["code"]))
    }

    @Test("the fast path's list of command names is the configuration's")
    func commandNames() {
        let configured = Set(TOTPTool.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
        #expect(Set(TOTPTool.commandNames) == configured)
        #expect(Set(TOTPTool.commandNames).count == TOTPTool.commandNames.count)
    }
}
