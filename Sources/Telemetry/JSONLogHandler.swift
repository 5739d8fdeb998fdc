import Logging
import WireJSON

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One JSON object a line on standard error: `time` (ISO 8601, UTC), `level`, `logger`, `message`, `request_id`
/// when the line belongs to a request, then the line's metadata as strings. What reaches a log line is chosen where it
/// is logged: no handler can tell a secret from its text, so nothing that logs ever passes one (tests read the log
/// for them).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(
        level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
        file: String, function: String, line: UInt
    ) {
        var all = metadata
        if let explicit { all.merge(explicit) { $1 } }
        var bytes = Self.line(level: level, message: message.description, label: label, metadata: all)
        bytes.append(UInt8(ascii: "\n"))
        StandardErrorLines.write(bytes)
    }

    /// The line's JSON, without its newline.
    static func line(level: Logger.Level, message: String, label: String, metadata: Logger.Metadata) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("time", WireDate.iso8601(Date()))
        writer.member("level", level.rawValue)
        writer.member("logger", label)
        writer.member("message", message)
        if let id = metadata[requestID] { writer.member("request_id", id.description) }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where key != requestID {
            writer.member(key, value.description)
        }
        writer.endObject()
        return writer.take()
    }

    /// Hummingbird's key for the id it gives each request.
    private static let requestID = "hb.request.id"
}

/// Whole lines to standard error, one `write` each, so lines from several threads never interleave.
private enum StandardErrorLines {
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
