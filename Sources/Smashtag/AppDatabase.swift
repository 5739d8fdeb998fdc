import GRDB

/// The app's own database (not the corpus): search sessions now; recents and popularity build on it.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the database at `path`, in WAL mode with a busy timeout, so the server and the
    /// CLI can share it.
    public static func open(at path: String) throws -> AppDatabase {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try AppDatabase(writer: DatabasePool(path: path, configuration: configuration))
    }

    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue())
    }

    private init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Where each term's session stands: the follow-on requests of what was fetched so far, as JSON.
            try db.execute(sql: """
                CREATE TABLE searchSession (
                    term TEXT PRIMARY KEY,
                    newer TEXT NOT NULL,
                    older TEXT
                )
                """)
        }
        return migrator
    }
}
