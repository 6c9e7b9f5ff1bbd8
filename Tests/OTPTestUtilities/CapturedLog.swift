public import Logging
internal import Synchronization

/// A logger whose lines a test reads back, at every level, without touching the process-wide
/// logging bootstrap that other suites share.
public final class CapturedLog: Sendable {
    /// One logged event.
    public struct Entry: Sendable, Equatable {
        public let level: Logger.Level
        public let message: String
        /// The handler's and the event's metadata, as `key=value` sorted by key (a dictionary
        /// prints in an order that changes from run to run); not part of equality, which compares
        /// what was said.
        public let fields: String

        public init(level: Logger.Level, message: String, fields: String = "") {
            self.level = level
            self.message = message
            self.fields = fields
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.level == rhs.level && lhs.message == rhs.message
        }
    }

    private let storage = Mutex<[Entry]>([])

    public init() {}

    /// Every entry so far.
    public var entries: [Entry] { storage.withLock { $0 } }
    /// Every entry as `level message [key=value …]`, for comparing whole lines.
    public var lines: [String] { entries.map { "\($0.level) \($0.message) [\($0.fields)]" } }
    /// Every line as one text, for checks that something appears nowhere.
    public var text: String { lines.joined(separator: "\n") }

    /// A logger at trace level that writes here.
    public var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
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
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            log.storage.withLock { $0.append(Entry(level: event.level, message: event.message.description, fields: fields)) }
        }
    }
}
