import Logging
import PostgresNIO
import Synchronization

/// Tells this server's live pages when another server (or this one) changed a term: every write that changes a
/// term's counts or Recents sends `NOTIFY smashtag_changes, '<term key>'` in its transaction, which PostgreSQL delivers
/// on commit. One connection listens for the whole server, only while someone listens, and fans each notification
/// out to the pages of that term. When the connection is lost (a database restart) it reconnects after a growing
/// pause and signals every page once, since it cannot know what changed meanwhile.
final class PostgresChanges: Sendable {
    static let channel = "smashtag_changes"
    private static let pauses: [Duration] = [.milliseconds(250), .seconds(1), .seconds(2), .seconds(5)]

    private struct Subscriber {
        let key: String
        let continuation: AsyncStream<Void>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var listener: Task<Void, Never>?
    }

    private let client: PostgresClient
    private let logger: Logger
    private let state = Mutex(State())

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// A signal now, then after every committed change of the term (`key`), until the subscriber stops listening.
    func subscribe(to key: String) -> AsyncStream<Void> {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield()
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(key: key, continuation: continuation)
            if state.listener == nil { state.listener = Task { await self.listen() } }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return signals
    }

    func stop() {
        state.withLock { state in
            state.listener?.cancel()
            state.listener = nil
            state.subscribers.values.forEach { $0.continuation.finish() }
            state.subscribers = [:]
        }
    }

    private func unsubscribe(_ id: Int) {
        state.withLock { state in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return }
            state.listener?.cancel()
            state.listener = nil
        }
    }

    /// `key` nil: every subscriber.
    private func signal(_ key: String?) {
        state.withLock { state in
            for subscriber in state.subscribers.values where key == nil || subscriber.key == key { subscriber.continuation.yield() }
        }
    }

    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        if failures > 0 { self.signal(nil) }
                        failures = 0
                        for try await notification in notifications { self.signal(notification.payload) }
                    }
                }
            } catch {
                guard !Task.isCancelled else { return }
                if failures == 0 { logger.warning("Live updates from the database stopped; reconnecting: \(String(reflecting: error))") }
                try? await Task.sleep(for: Self.pauses[min(failures, Self.pauses.count - 1)])
                failures += 1
            }
        }
    }
}
