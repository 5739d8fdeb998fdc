import Foundation
import Smashtag

/// Where Smashtag keeps its databases: `--data-dir`, else `$SMASHTAG_HOME`, else the XDG data directory.
struct DataDirectory {
    let path: String

    init(_ option: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        let xdg = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        path = option ?? environment["SMASHTAG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? xdg + "/smashtag"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot use “\(path)” as the data directory: \(error.localizedDescription)")
        }
    }

    /// The working directory, where nothing better is possible.
    static var current: DataDirectory { DataDirectory(path: ".") }

    private init(path: String) {
        self.path = path
    }

    /// The local tweet corpus.
    var corpus: String { path + "/corpus.sqlite" }
    /// Recents, popularity and search sessions.
    var appDatabase: String { path + "/smashtag.sqlite" }
}

extension DataDirectory {
    /// A benchmark's own app database in the data directory (`name`), made afresh: earlier runs' data would change
    /// what it measures.
    func freshBenchmarkDatabase(_ name: String) throws -> AppDatabase {
        let file = path + "/" + name
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        return try AppDatabase.open(at: file)
    }
}
