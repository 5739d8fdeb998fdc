import Corpus
import GRDB
import Synchronization

/// Tells every live page when the app database changes: this process's commits (through GRDB's observation) and
/// other processes' (which SQLite reports only as a new `PRAGMA data_version` on a connection of their own, asked a
/// few times a second — not a query of the tables). One observation and one watcher serve every subscriber, however
/// many pages are open; they run only while someone listens.
final class DatabaseChanges: Sendable {
    /// How often another process's commit is looked for: well within the few seconds a live page may take.
    static let dataVersionInterval = Duration.milliseconds(250)

    private struct State {
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var watchers: [Task<Void, any Error>] = []
    }

    private let writer: any DatabaseWriter
    /// Other processes' commits; nil in memory, where there are none.
    private let generation: DatabaseGeneration?
    private let state = Mutex(State())

    init(writer: any DatabaseWriter, generation: DatabaseGeneration?) {
        self.writer = writer
        self.generation = generation
    }

    /// A signal now, then after every committed change, until the subscriber stops listening.
    func subscribe() -> AsyncStream<Void> {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield()
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            if state.watchers.isEmpty { state.watchers = startWatching() }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return signals
    }

    private func unsubscribe(_ id: Int) {
        state.withLock { state in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return }
            state.watchers.forEach { $0.cancel() }
            state.watchers = []
        }
    }

    private func broadcast() {
        state.withLock { state in state.subscribers.values.forEach { $0.yield() } }
    }

    private func startWatching() -> [Task<Void, any Error>] {
        let local = Task { [writer] in
            let observation = ValueObservation.tracking(region: Table("mentionCount"), Table("recent"), fetch: { _ in true })
            for try await _ in observation.values(in: writer, bufferingPolicy: .bufferingNewest(1)) { self.broadcast() }
        }
        let remote = Task { [generation] in
            guard let generation else { return }
            try await Self.watch(generation) { self.broadcast() }
        }
        return [local, remote]
    }

    private static func watch(_ generation: DatabaseGeneration, changed: () -> Void) async throws {
        var seen = try generation.current()
        while true {
            try await Task.sleep(for: dataVersionInterval)
            let now = try generation.current()
            if now != seen { changed() }
            seen = now
        }
    }
}
