import AppStore
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
}
