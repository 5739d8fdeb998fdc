import AppStore
import Corpus
import Foundation
import Logging
import PostgresSupport

/// Where the app's store is: PostgreSQL, shared by several servers, when a URL is given (`--database`, else
/// `SMASHTAG_DATABASE_URL`); else the SQLite file in the data directory.
public struct StoreLocation: Sendable {
    /// nil: the SQLite file in the data directory.
    public let postgres: PostgresURL?

    public init(
        option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        throws(PostgresURLError)
    {
        guard let text = option ?? environment["SMASHTAG_DATABASE_URL"], !text.isEmpty else {
            postgres = nil
            return
        }
        postgres = try PostgresURL(text)
    }

    /// The store, or `StoreUnavailable` (one sentence) when the database cannot be reached.
    public func open(in directory: DataDirectory, logger: Logger) async throws -> AppDatabase {
        try await AppDatabase.open(url: postgres, orFileAt: directory.appDatabase, logger: logger)
    }

    /// The corpus alone, for a command that needs no store: in PostgreSQL when a URL is given (its own small pool),
    /// else the SQLite file in the data directory.
    public func openCorpus(in directory: DataDirectory, logger: Logger) async throws -> any LiveIndexCorpus {
        guard let postgres else { return try await SQLiteCorpus.open(at: directory.corpus) }
        let pool = try await PostgresPool.connect(to: postgres, connections: 8, migrations: [], logger: logger)
        return try await PostgresCorpus.open(in: pool)
    }
}
