import Foundation
import Posts

/// Where Smashtag keeps its databases: `--data-dir`, else `$SMASHTAG_HOME`, else the XDG data directory — made if it
/// is missing.
public struct DataDirectory: Sendable {
    public let path: String

    public init(
        _ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(DataDirectoryError)
    {
        let xdg =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        let path = option ?? environment["SMASHTAG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? xdg + "/smashtag"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw DataDirectoryError(path: path, reason: error.localizedDescription)
        }
        self.path = path
    }

    /// A directory the caller has made.
    public init(path: String) {
        self.path = path
    }

    /// The working directory, where nothing better is possible.
    public static var current: DataDirectory { DataDirectory(path: ".") }

    /// The local post corpus.
    public var corpus: String { path + "/corpus.sqlite" }
    /// Recents, popularity and search sessions (when they are not in PostgreSQL).
    public var appDatabase: String { path + "/smashtag.sqlite" }
}

/// The data directory cannot be made or used.
public struct DataDirectoryError: ExplainedError {
    let path: String
    let reason: String

    public var description: String { "cannot use “\(path)” as the data directory: \(reason)" }
}
