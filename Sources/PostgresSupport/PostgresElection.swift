import Logging
import PostgresNIO

/// One server among those sharing the database does `work`: the one holding a session advisory lock. The others
/// try again every few seconds, so when the holder stops or dies (its connection closes and PostgreSQL releases the
/// lock) another takes over. The holder checks its connection every few seconds and stops `work` when it is lost:
/// without the connection it no longer holds the lock, and another server may be elected.
extension PostgresPool {
    static let electionInterval = Duration.seconds(2)

    package func whileElected(_ role: ElectedRole, _ work: @escaping @Sendable () async throws -> Void) async throws {
        let lock = AdvisoryLock(role)
        var announced = false
        while true {
            try Task.checkCancellation()
            do {
                let finished = try await client.withConnection { [logger] connection in
                    try await Self.holding(lock, on: connection, logger: logger) {
                        try await Self.watching(connection, work)
                    }
                }
                if finished { return }
                if !announced {
                    logger.info("Another server runs the \(role.rawValue); this one takes over if it stops.")
                }
                announced = true
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.warning(
                    """
                    The \(role.rawValue) paused: \(StoreUnavailable.ifLost(error)) It is tried again \
                    every \(Self.electionInterval.components.seconds) s.
                    """
                )
            }
            try await Task.sleep(for: Self.electionInterval)
        }
    }

    /// `work` while holding the lock, then the lock released; false (and nothing done) when another server holds it.
    private static func holding(
        _ lock: AdvisoryLock, on connection: PostgresConnection, logger: Logger,
        _ work: () async throws -> Void
    ) async throws -> Bool {
        guard try await lock.tryLock(on: connection) else { return false }
        logger.info("This server was elected to run the \(lock.name).")
        do {
            try await work()
        } catch {
            _ = try? await unlock(lock, on: connection)
            throw error
        }
        try await unlock(lock, on: connection)
        return true
    }

    /// A closed connection holds no lock (PostgreSQL released it), and a query written to one would never return.
    private static func unlock(_ lock: AdvisoryLock, on connection: PostgresConnection) async throws {
        guard !connection.isClosed else { return }
        try await PostgresSupport.withDeadline(deadline) { try await lock.unlock(on: connection) }
    }

    /// `work`, cancelled when the connection holding the lock closes or stops answering.
    private static func watching(
        _ connection: PostgresConnection, _ work: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await work() }
            group.addTask {
                while true {
                    try await Task.sleep(for: electionInterval)
                    guard !connection.isClosed else {
                        throw StoreUnavailable(description: "The connection holding the election closed.")
                    }
                    try await PostgresSupport.withDeadline(electionInterval) { try await connection.run("SELECT 1") }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}

/// What runs on one server only: the writers of shared data that two servers would write twice.
public enum ElectedRole: String, Sendable {
    case demoTweeter = "demo tweeter"
    case liveIndex = "live index"
}
