import NIOCore
import Synchronization

/// Live event streams shared by everyone who listens to the same thing. Ten thousand open Popularity pages of one
/// term cost one reader of the term's table, one rendering of each change and one buffer of its bytes, not ten
/// thousand: a feed is keyed by what its events depend on, started by its first listener and stopped with its last.
/// A listener is a number and a function that hands a delivery to its connection.
///
/// Every `heartbeatInterval` each listener gets a heartbeat to write as a comment line, so that proxies in between
/// (nginx's `proxy_read_timeout`) keep a quiet stream open.
final class LiveFeeds: Sendable {
    /// What a listener is given.
    enum Delivery: Sendable {
        /// The feed's latest events: all a listener needs, whatever it missed before.
        case events(ByteBuffer)
        case heartbeat
        /// The feed ended: its reader failed or stopped. The stream closes, and a browser reconnects after the
        /// `retry` it was given.
        case end
    }

    /// Publishes each new set of events until it returns or throws, which ends the feed.
    typealias Reader = @Sendable (_ publish: @escaping @Sendable (ByteBuffer) -> Void) async throws -> Void
    /// Hands a delivery to a listener's connection. It is called with the feeds locked, in order, so it must only
    /// pass the delivery on (to an event loop, a stream) and never call back into the feeds.
    typealias Deliver = @Sendable (Delivery) -> Void

    private struct Feed {
        var latest: ByteBuffer?
        var listeners: [Int: Deliver] = [:]
        var reader: Task<Void, Never>?
    }

    private struct State {
        var feeds: [String: Feed] = [:]
        var nextListener = 0
        var heartbeat: Task<Void, Never>?
        var published = 0

        /// With no feed left, nothing needs the heartbeat.
        mutating func stopHeartbeatIfIdle() {
            guard feeds.isEmpty else { return }
            heartbeat?.cancel()
            heartbeat = nil
        }
    }

    let heartbeatInterval: Duration
    private let state = Mutex(State())

    init(heartbeatInterval: Duration = .seconds(20)) {
        self.heartbeatInterval = heartbeatInterval
    }

    /// Joins the feed `key`, starting it with `reader` when nobody listens to it yet; `deliver` is given the feed's
    /// latest events at once if there are any, then every change, heartbeat and the end.
    func join(_ key: String, reader: @escaping Reader, deliver: @escaping Deliver) -> LiveListener {
        state.withLock { state in
            state.nextListener += 1
            let id = state.nextListener
            var feed = state.feeds[key] ?? Feed()
            feed.listeners[id] = deliver
            if feed.reader == nil { feed.reader = start(key, reader) }
            if let latest = feed.latest { deliver(.events(latest)) }
            state.feeds[key] = feed
            if state.heartbeat == nil { state.heartbeat = startHeartbeat() }
            return LiveListener(feeds: self, key: key, id: id)
        }
    }

    /// How many feeds run (one reader each), how many listen to them, and how many sets of events have been
    /// published since the start.
    var counts: (feeds: Int, listeners: Int, published: Int) {
        state.withLock { state in
            (state.feeds.count, state.feeds.values.reduce(0) { $0 + $1.listeners.count }, state.published)
        }
    }

    fileprivate func leave(_ key: String, _ id: Int) {
        state.withLock { state in
            guard var feed = state.feeds[key], feed.listeners.removeValue(forKey: id) != nil else { return }
            if feed.listeners.isEmpty {
                feed.reader?.cancel()
                state.feeds[key] = nil
            } else {
                state.feeds[key] = feed
            }
            state.stopHeartbeatIfIdle()
        }
    }

    private func start(_ key: String, _ reader: @escaping Reader) -> Task<Void, Never> {
        Task {
            try? await reader { [weak self] events in self?.publish(events, to: key) }
            // Ended by its reader (a failure, or no more changes): its listeners end, and the next to come starts a
            // new reader. Cancelled by its last listener leaving: the feed is gone already.
            guard !Task.isCancelled else { return }
            self.finish(key)
        }
    }

    private func publish(_ events: ByteBuffer, to key: String) {
        state.withLock { state in
            guard state.feeds[key] != nil else { return }
            state.feeds[key]!.latest = events
            state.published += 1
            for deliver in state.feeds[key]!.listeners.values { deliver(.events(events)) }
        }
    }

    private func finish(_ key: String) {
        state.withLock { state in
            guard let feed = state.feeds.removeValue(forKey: key) else { return }
            for deliver in feed.listeners.values { deliver(.end) }
            state.stopHeartbeatIfIdle()
        }
    }

    private func startHeartbeat() -> Task<Void, Never> {
        Task { [heartbeatInterval, weak self] in
            while (try? await Task.sleep(for: heartbeatInterval)) != nil {
                self?.beat()
            }
        }
    }

    private func beat() {
        state.withLock { state in
            for feed in state.feeds.values {
                for deliver in feed.listeners.values { deliver(.heartbeat) }
            }
        }
    }
}

/// One listener's place in a feed, to leave it when its stream ends.
struct LiveListener: Sendable {
    fileprivate let feeds: LiveFeeds
    fileprivate let key: String
    fileprivate let id: Int

    func leave() {
        feeds.leave(key, id)
    }
}
