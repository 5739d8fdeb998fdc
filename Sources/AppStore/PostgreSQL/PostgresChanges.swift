import Logging
import PostgresNIO
import PostgresSupport

/// What changes a PostgreSQL store, from this server or another: every write that changes a term's counts or Recents
/// sends `NOTIFY smashtag_changes, '<term key>'` in its transaction, which PostgreSQL delivers on commit. One
/// connection listens for the whole server, only while someone listens, and each notification reaches the pages of
/// that term. When the connection is lost (a database restart) it reconnects after a growing pause and signals every
/// page once, since it cannot know what changed meanwhile.
enum PostgresChanges {
    static let channel = "smashtag_changes"
    private static let pauses: [Duration] = [.milliseconds(250), .seconds(1), .seconds(2), .seconds(5)]

    static func signals(client: PostgresClient, logger: Logger) -> ChangeSignals {
        ChangeSignals { signals in await listen(client, logger: logger, to: signals) }
    }

    private static func listen(_ client: PostgresClient, logger: Logger, to signals: ChangeSignals) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        if failures > 0 { signals.signal(nil) }
                        failures = 0
                        for try await notification in notifications { signals.signal(notification.payload) }
                    }
                }
            } catch {
                guard !Task.isCancelled else { return }
                if failures == 0 {
                    logger.warning("Live updates from the database stopped; reconnecting: \(String(reflecting: error))")
                }
                try? await Task.sleep(for: pauses[min(failures, pauses.count - 1)])
                failures += 1
            }
        }
    }
}
