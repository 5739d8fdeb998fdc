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
    ///
    /// Nothing here yields, finishes or cancels while holding the lock: a yield takes the listening task's own lock,
    /// and a task being cancelled holds that lock while its stream's termination handler takes this one
    /// (`unsubscribe`). Both at once froze a server for good (every event loop waiting on this lock).
    func signal(_ key: String?) {
        let listening = state.withLock { state in
            state.subscribers.values.filter { key == nil || $0.key == key }.map(\.continuation)
        }
        for continuation in listening { continuation.yield() }
    }

    /// Ends every subscription and the watcher.
    func stop() {
        let (watcher, subscribers) = state.withLock { state in
            defer { (state.watcher, state.subscribers) = (nil, [:]) }
            return (state.watcher, state.subscribers.values)
        }
        watcher?.cancel()
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    private func unsubscribe(_ id: Int) {
        let watcher = state.withLock { state -> Task<Void, Never>? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.cancel()
    }
}
