import Corpus
import Foundation
import Twitter

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

    /// The local tweet corpus.
    var corpus: String { path + "/corpus.sqlite" }
    /// Recents, popularity and search sessions.
    var appDatabase: String { path + "/smashtag.sqlite" }
}

/// A failure the user should read: printed as `smashtag: <sentence>` with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension CommandFailure {
    /// Runs `body`, turning the errors a person can act on (a malformed query, a bad paging id) into their sentence.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as QueryError {
            throw CommandFailure(error.description)
        } catch let error as CorpusError {
            throw CommandFailure(error.description)
        } catch let error as XAPIError {
            throw CommandFailure(error.description)
        }
    }
}
