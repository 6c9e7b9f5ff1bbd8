import Logging
import Synchronization

/// A logger whose lines the test reads back, at every level, without touching the process-wide
/// logging bootstrap that other suites share.
final class CapturedLog: Sendable {
    struct Entry: Sendable, Equatable {
        let level: Logger.Level
        let message: String
    }

    private let storage = Mutex<[Entry]>([])

    var entries: [Entry] { storage.withLock { $0 } }
    /// Every line as one text, for checks that something appears nowhere.
    var text: String { entries.map { "\($0.level): \($0.message)" }.joined(separator: "\n") }

    var logger: Logger {
        var logger = Logger(label: "OTPSMSTests") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.storage.withLock { $0.append(Entry(level: event.level, message: event.message.description)) }
        }
    }
}
