import Synchronization

/// Live pages' subscriptions to a store's changes, for both stores: each subscriber gets a signal at once, then one
/// after every change of its term — or of anything, when the store cannot tell which — until it stops listening.
/// One watcher reports the store's changes for all of them; it runs only while someone listens (started with the
/// first subscriber, cancelled with the last).
final class ChangeSignals: Sendable {
    private struct Subscriber {
        let key: String
        let continuation: AsyncStream<Void>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var watcher: Task<Void, Never>?
    }

    private let watch: @Sendable (ChangeSignals) async -> Void
    private let state = Mutex(State())

    /// `watch` reports changes through `signal` until it is cancelled.
    init(watch: @escaping @Sendable (ChangeSignals) async -> Void) {
        self.watch = watch
    }

    func subscribe(to key: String) -> AsyncStream<Void> {
        let (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield()
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(key: key, continuation: continuation)
            if state.watcher == nil { state.watcher = Task { await self.watch(self) } }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return signals
    }

    /// The subscribers of the term `key` hear of a change; every subscriber when `key` is nil.
    func signal(_ key: String?) {
        state.withLock { state in
            for subscriber in state.subscribers.values where key == nil || subscriber.key == key {
                subscriber.continuation.yield()
            }
        }
    }

    /// Ends every subscription and the watcher.
    func stop() {
        state.withLock { state in
            state.watcher?.cancel()
            state.watcher = nil
            for subscriber in state.subscribers.values { subscriber.continuation.finish() }
            state.subscribers = [:]
        }
    }

    private func unsubscribe(_ id: Int) {
        state.withLock { state in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return }
            state.watcher?.cancel()
            state.watcher = nil
        }
    }
}
