import GRDB

extension AppDatabase {
    /// A signal now, then after every committed change to the database: this process's (through GRDB's
    /// observation) and other processes' (which SQLite reports only as a new `PRAGMA data_version` on a
    /// connection of their own, asked a few times a second — not a query of the tables).
    func changes() -> AsyncStream<Void> {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield()
        let local = Task { [writer] in
            let observation = ValueObservation.tracking(region: Table("mentionCount"), Table("recent"), fetch: { _ in true })
            for try await _ in observation.values(in: writer, bufferingPolicy: .bufferingNewest(1)) { continuation.yield() }
        }
        let remote = Task { [path] in
            guard let path else { return }
            try await Self.watchDataVersion(path: path) { continuation.yield() }
        }
        continuation.onTermination = { _ in
            local.cancel()
            remote.cancel()
        }
        return signals
    }

    /// How often another process's commit is looked for: well within the few seconds a live page may take.
    static let dataVersionInterval = Duration.milliseconds(250)

    private static func watchDataVersion(path: String, changed: () -> Void) async throws {
        var configuration = Configuration()
        configuration.readonly = true
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        var version = try await connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
        while true {
            try await Task.sleep(for: dataVersionInterval)
            let now = try await connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
            if now != version { changed() }
            version = now
        }
    }
}
