import AppStore
import ArgumentParser
import Corpus
import Foundation
import Logging
import PostgresSupport
import Posts
import SmashtagApp

/// Where a benchmark finds its data: the data directory (the corpus it searches) and the store it writes.
struct BenchOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "The data directory (default: $SMASHTAG_HOME, else the XDG one).")
    var dataDirectory: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "Measure the PostgreSQL store (default: $SMASHTAG_DATABASE_URL, else a SQLite file in the data directory).",
            valueName: "postgresql://user@host:port/db"))
    var databaseURL: String?

    var directory: DataDirectory {
        get throws { try DataDirectory(dataDirectory) }
    }

    /// The PostgreSQL store named, if one is.
    var postgres: PostgresURL? {
        get throws { try StoreLocation(option: databaseURL).postgres }
    }

    /// `body` with the store named open: PostgreSQL's connections run beside it.
    func withStore<T: Sendable>(_ body: (AppDatabase) async throws -> T) async throws -> T {
        var logger = Logger(label: "smashtag-bench")
        logger.logLevel = .warning
        return try await StoreLocation(option: databaseURL).open(in: directory, logger: logger).withConnections(body)
    }

    /// The corpus named: PostgreSQL's with `--database`, else the data directory's SQLite file.
    func openCorpus() async throws -> any LiveIndexCorpus {
        var logger = Logger(label: "smashtag-bench")
        logger.logLevel = .warning
        return try await StoreLocation(option: databaseURL).openCorpus(in: directory, logger: logger)
    }

    /// A benchmark's own SQLite store in the data directory (`name`), made afresh: earlier runs' data would change
    /// what it measures.
    func freshStore(_ name: String) async throws -> AppDatabase {
        let file = try directory.path + "/" + name
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        return try await AppDatabase.open(at: file)
    }
}

/// A benchmark that cannot run, in one sentence.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A benchmark's result on stdout, as JSON for the scripts that collect them.
func report(_ result: some Encodable) {
    print(PublicJSON.text(result))
}

/// A line on stderr, beside the results on stdout.
func note(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
