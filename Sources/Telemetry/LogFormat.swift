import Logging

/// How the server writes its log: lines for people (`text`, swift-log's own), or one JSON object a line for a log
/// shipper (`json`).
public enum LogFormat: String, Sendable, CaseIterable {
    case text
    case json

    /// Installs the format as the process's logging backend; called once, before anything logs.
    public func bootstrap() {
        switch self {
        case .text: LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        }
    }
}
