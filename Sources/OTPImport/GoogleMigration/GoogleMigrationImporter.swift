import OTPURI

/// Reads Google Authenticator migration URIs (`otpauth-migration://offline?data=…`), one QR code
/// each, and checks that every code of each export batch is there.
///
/// A bad line is reported and the others imported, as in a URI list; so is an incomplete batch,
/// since the accounts of the codes that were read are good (Aegis lets the user accept a partial import).
enum GoogleMigrationImporter {
    /// A text that should be a migration URI, and where it was.
    struct Item {
        let position: SkippedEntry.Position
        let text: String
    }

    /// A text file: one URI a line, blank lines and `#` comments skipped.
    static func read(_ text: String) throws(ImportError) -> ImportResult {
        let items = URIListImporter.contentLines(of: text).map { Item(position: .line($0.number), text: $0.text) }
        return try read(items, nothingReadable: "no line is a readable otpauth-migration:// URI")
    }

    /// Texts scanned from QR codes, one URI each; surrounding whitespace is ignored.
    static func read(uris: [String]) throws(ImportError) -> ImportResult {
        let items = uris.enumerated().map { Item(position: .entry($0.offset + 1), text: trimmed($0.element)) }
        return try read(items, nothingReadable: "none of the texts is a readable otpauth-migration:// URI")
    }

    private static func read(_ items: [Item], nothingReadable: String) throws(ImportError) -> ImportResult {
        var result = ImportResult()
        var firstProblem: (Item, MigrationURIError)?
        // Payloads by (batch id, index): the same code scanned twice counts once.
        var seen: [BatchPlace: [MigrationURICoding.Payload]] = [:]
        var batches = BatchTracker()
        for item in items {
            let payload: MigrationURICoding.Payload
            do {
                payload = try MigrationURICoding.payload(from: item.text)
            } catch {
                firstProblem = firstProblem ?? (item, error)
                result.skipped.append(SkippedEntry(position: item.position, label: nil, reason: .invalidMigrationURI(error)))
                continue
            }
            let code = MigrationCode(
                position: item.position,
                version: Int(payload.version),
                batchID: payload.batchID,
                batchSize: MigrationURICoding.batchSize(of: payload),
                batchIndex: Int(payload.batchIndex),
                accountCount: payload.otpParameters.count
            )
            let place = BatchPlace(batchID: code.batchID, index: code.batchIndex)
            // A different payload in the same place is not a second scan but another export whose
            // random id collided, or one without ids (0): importing it loses nothing.
            if seen[place, default: []].contains(payload) { continue }
            seen[place, default: []].append(payload)
            result.migrationCodes.append(code)
            batches.record(code)
            for parameters in payload.otpParameters {
                switch MigrationAccountMapping.account(from: parameters) {
                case .account(let account): result.accounts.append(account)
                case .skipped(let reason):
                    result.skipped.append(
                        SkippedEntry(position: item.position, label: MigrationAccountMapping.label(of: parameters), reason: reason)
                    )
                }
            }
        }
        guard !result.migrationCodes.isEmpty else {
            let example = firstProblem.map { " (\($0.0.position): \($0.1))" } ?? ""
            throw .malformed(.googleAuthenticator, reason: nothingReadable + example)
        }
        result.missingBatchParts = batches.missingParts()
        return result
    }

    private struct BatchPlace: Hashable {
        let batchID: Int32
        let index: Int
    }

    /// The indices read of each batch, and its size (the largest any of its codes declares).
    private struct BatchTracker {
        private var order: [Int32] = []
        private var sizes: [Int32: Int] = [:]
        private var indices: [Int32: Set<Int>] = [:]

        mutating func record(_ code: MigrationCode) {
            if sizes[code.batchID] == nil { order.append(code.batchID) }
            sizes[code.batchID] = max(sizes[code.batchID] ?? 0, code.batchSize)
            indices[code.batchID, default: []].insert(code.batchIndex)
        }

        /// Each batch on its own, in the order first read: several exports may be imported at once.
        func missingParts() -> [MissingBatchParts] {
            order.compactMap { id in
                let size = sizes[id] ?? 1
                let read = indices[id] ?? []
                let missing = (0..<size).filter { !read.contains($0) }
                return missing.isEmpty ? nil : MissingBatchParts(batchID: id, batchSize: size, missingIndices: missing)
            }
        }
    }

    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
