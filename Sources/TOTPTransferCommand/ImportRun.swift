internal import Foundation
internal import OTPCommandSupport
internal import OTPCore
internal import OTPImport
internal import OTPQRScan
internal import OTPURI
internal import OTPVault

/// One `totp import` (or `totp add --qr`): every file read and checked first, then one change of
/// the vault, so a file that fails leaves the vault as it was.
struct ImportRun {
    var files: [String]
    var source: ImportSource?
    var passwordFile: String?
    var vaultOptions: VaultOptions

    /// What was read, before the vault is touched.
    struct Reading {
        var accounts: [OTPAuthURI] = []
        /// Skipped entries, each prefixed with its file.
        var skipped: [String] = []
        /// Missing parts of Google Authenticator batches.
        var missing: [String] = []
    }

    func run(json: Bool) throws(CommandFailure) {
        let reading = try read()
        guard !reading.accounts.isEmpty || !reading.skipped.isEmpty else {
            throw .dataError("no OTP account in \(files.joined(separator: ", "))")
        }
        let addition = try vaultOptions.update(createIfMissing: true) { (content: inout VaultContent) throws(VaultError) in
            try content.add(reading.accounts)
        }
        if json {
            var object = JSONObject()
            object.add("added", addition.added.map(\.label))
            object.add("duplicates", addition.duplicates.map(VaultEntry.label(of:)))
            object.add("skipped", reading.skipped)
            object.add("missing", reading.missing)
            StandardStreams.writeOutput(object.text + "\n")
            return
        }
        var text = ""
        for entry in addition.added { text += "added \(entry.label)\n" }
        for account in addition.duplicates { text += "already in the vault: \(VaultEntry.label(of: account))\n" }
        for line in reading.skipped { text += "skipped \(line)\n" }
        for line in reading.missing { text += "incomplete \(line)\n" }
        text += "\(addition.added.count) added, \(addition.duplicates.count) already there, \(reading.skipped.count) skipped\n"
        StandardStreams.writeOutput(text)
    }

    /// The most bytes a file to import may have: an export of thousands of accounts is well under
    /// a megabyte, and a phone's screenshot of its QR codes a few; beyond, it is not an export.
    static let maximumFileBytes = QRScanner.maximumByteCount

    /// The bytes of `file`, read up to ``maximumFileBytes`` and refused beyond (a device, an
    /// endless stream, the wrong file) before it is read whole.
    static func contents(of file: String) throws(CommandFailure) -> [UInt8] {
        do {
            return try POSIXFile.contents(ofFile: file, atMost: maximumFileBytes)
        } catch {
            throw CommandFailure(
                error, reading: file, tooLarge: "\(file) is larger than \(maximumFileBytes >> 20) MiB, which no export is: give the export file")
        }
    }

    /// Every file, read and decrypted; QR codes of Google Authenticator batches are gathered
    /// across images, so a batch spread over several screenshots is reassembled.
    func read() throws(CommandFailure) -> Reading {
        var reading = Reading()
        var migrationTexts: [String] = []
        var migrationSources: [String] = []
        var password: VaultPassphrase?
        for file in files {
            let data = Data(try Self.contents(of: file))
            if source == .qr || (source == nil && Self.isImage(data)) {
                let codes: [[UInt8]]
                do {
                    codes = try QRScanner.codes(inImage: data)
                } catch {
                    throw CommandFailure(error, file: file)
                }
                for (index, code) in codes.enumerated() {
                    let text = String(decoding: code, as: UTF8.self)
                    let lowercased = text.prefix(24).lowercased()
                    if lowercased.hasPrefix("otpauth-migration://") {
                        migrationTexts.append(text)
                        migrationSources.append("\(file) code \(index + 1)")
                    } else if lowercased.hasPrefix("otpauth://") {
                        collect(
                            try importing(Data(text.utf8), format: .uriList, file: "\(file) code \(index + 1)", password: &password),
                            from: "\(file) code \(index + 1)", into: &reading)
                    } else {
                        throw .dataError("\(file): QR code \(index + 1) holds neither an otpauth:// nor an otpauth-migration:// URI")
                    }
                }
                continue
            }
            collect(try importing(data, format: source?.format, file: file, password: &password), from: file, into: &reading)
        }
        if !migrationTexts.isEmpty {
            let result: ImportResult
            do {
                result = try Importer.importGoogleMigration(uris: migrationTexts)
            } catch {
                throw CommandFailure(error, file: migrationSources.joined(separator: ", "))
            }
            collect(result, from: "QR codes", into: &reading)
        }
        return reading
    }

    /// Imports one export; an encrypted one asks for its password the first time one is needed.
    private func importing(_ data: Data, format: ImportFormat?, file: String, password: inout VaultPassphrase?) throws(CommandFailure) -> ImportResult
    {
        do {
            return try Importer.importAccounts(from: data, format: format, password: password)
        } catch .passwordRequired {
            guard password == nil else { throw CommandFailure(ImportError.wrongPassword(format ?? .aegis), file: file) }
            do throws(VaultError) {
                if let passwordFile {
                    password = try PassphraseReader.read(path: passwordFile)
                } else {
                    password = try PassphraseReader.prompt("Password of \(file): ", repeat: nil)
                }
            } catch {
                throw CommandFailure(error)
            }
            return try importing(data, format: format, file: file, password: &password)
        } catch {
            throw CommandFailure(error, file: file)
        }
    }

    private func collect(_ result: ImportResult, from file: String, into reading: inout Reading) {
        reading.accounts += result.accounts
        reading.skipped += result.skipped.map { "\(file) \($0)" }
        reading.missing += result.missingBatchParts.map { "\(file): \($0)" }
    }

    /// PNG or JPEG, by their signatures.
    static func isImage(_ data: Data) -> Bool {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47]) || data.starts(with: [0xFF, 0xD8, 0xFF])
    }
}
