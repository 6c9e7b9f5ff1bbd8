internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPQR

/// How `qr` and `new` draw a QR code and which files they write it to.
struct QROptions: ParsableArguments {
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

    @Option(
        help: ArgumentHelp(
            "Draw it as utf8 (half blocks), utf8-inverted (for light text on a dark background), ansi (colours), ascii or none (default: utf8, none when writing a file).",
            valueName: "format"))
    var format: QRStyle?

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
            throw CommandFailure(error)
        }
        do {
            if let png { try Console.writeFile(try code.pngData(scale: scale, margin: margin), to: png) }
            if let svg { try Console.writeFile(Array(try code.svgString(moduleSize: scale, margin: margin).utf8), to: svg) }
        } catch let error as QRCodeError {
            throw CommandFailure(error)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw .software("\(error)")
        }
        let drawing = format ?? (drawByDefault && png == nil && svg == nil ? .utf8 : .none)
        return drawing.render(code)
    }
}
