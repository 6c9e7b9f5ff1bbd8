internal import ArgumentParser
internal import OTPQR

/// How `qr` and `new` draw a QR code and which files they write it to.
struct QROptions: ParsableArguments {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case utf8
        case utf8Inverted = "utf8-inverted"
        case ansi
        case ascii
    }

    enum Level: String, CaseIterable, ExpressibleByArgument {
        case L, M, Q, H

        init?(argument: String) {
            self.init(rawValue: argument.uppercased())
        }

        var errorCorrection: QRCode.ErrorCorrection {
            switch self {
            case .L: .low
            case .M: .medium
            case .Q: .quartile
            case .H: .high
            }
        }
    }

    @Option(help: ArgumentHelp(
        "Draw it as utf8 (half blocks), utf8-inverted (for light text on a dark background), ansi (colours) or ascii (default: utf8, none when writing a file).",
        valueName: "format"))
    var format: Format?

    @Option(help: ArgumentHelp("Also write it as a PNG image.", valueName: "file"), completion: .file(extensions: ["png"]))
    var png: String?

    @Option(help: ArgumentHelp("Also write it as an SVG image.", valueName: "file"), completion: .file(extensions: ["svg"]))
    var svg: String?

    @Option(name: .customLong("ec"), help: ArgumentHelp("Error correction level: L, M, Q or H.", valueName: "level"))
    var level: Level = .M

    @Option(help: ArgumentHelp("Pixels per module in the PNG and SVG, 1 to 100.", valueName: "n"))
    var scale: Int = 8

    @Option(help: ArgumentHelp("Light modules around the PNG and SVG symbol, 0 to 100.", valueName: "n"))
    var margin: Int = QRCode.quietZone

    /// Encodes `text`, writes the requested files and returns the drawing for standard output
    /// (empty when none is wanted).
    func render(_ text: String, drawByDefault: Bool) throws(CommandFailure) -> String {
        let code: QRCode
        do {
            code = try QRCode(encoding: text, errorCorrection: level.errorCorrection)
        } catch {
            throw Self.failure(error)
        }
        do {
            if let png { try Console.writeFile(try code.pngData(scale: scale, margin: margin), to: png) }
            if let svg { try Console.writeFile(Array(try code.svgString(moduleSize: scale, margin: margin).utf8), to: svg) }
        } catch let error as QRCodeError {
            throw Self.failure(error)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw .software("\(error)")
        }
        let drawing = format ?? (drawByDefault && png == nil && svg == nil ? .utf8 : nil)
        switch drawing {
        case .utf8: return code.utf8String(inverted: false)
        case .utf8Inverted: return code.utf8String(inverted: true)
        case .ansi: return code.ansiString()
        case .ascii: return code.asciiString()
        case nil: return ""
        }
    }

    private static func failure(_ error: QRCodeError) -> CommandFailure {
        switch error {
        case .encodingFailed, .pngFailure: .software(error.description)
        default: .usage(error.description)
        }
    }
}
