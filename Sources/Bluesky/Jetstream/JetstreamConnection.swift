import HTTPExchange
import Logging
import Posts
import Synchronization
import WSClient

/// Jetstream over a WebSocket (`wantedCollections=app.bsky.feed.post`, no account needed): every message goes to
/// `receive`; after a close or a failure it reconnects with growing pauses (1 s doubling to a minute, back to 1 s
/// once messages flow again), asking for the events from the cursor the caller has committed.
///
/// A connection can also stop without closing (a half-open socket: a NAT or a proxy forgot it, the far side went
/// away), and then nothing ever arrives and nothing fails. Two things notice it: WebSocket pings every 10 s, a
/// missing pong closing the connection, and a stream silent for `silenceLimit` (Jetstream carries every post on
/// Bluesky, several a second, so half a minute of nothing is a dead stream). Either way it is reopened from the
/// cursor, losing nothing, so a days-long ingest never stalls unseen.
package struct JetstreamConnection: Sendable {
    /// One of Bluesky's public Jetstream hosts.
    package static let defaultURL = "wss://jetstream2.us-east.bsky.network/subscribe"
    /// Jetstream's events are a few KB; a message past this is not an event.
    static let maximumMessage = 1 << 20
    package static let silenceLimit: Duration = .seconds(30)
    package static let pingPeriod: Duration = .seconds(10)

    let url: String
    let logger: Logger
    let silence: Duration
    /// Pings, and a close that does not wait long for a far side that may be gone.
    private let configuration: WebSocketClientConfiguration

    /// `silence` and `pingPeriod`: how soon a connection that stopped without closing is noticed (tests shorten them).
    package init(
        url: String, logger: Logger, silence: Duration = Self.silenceLimit, pingPeriod: Duration = Self.pingPeriod
    ) {
        self.url = url
        self.logger = logger
        self.silence = silence
        configuration = WebSocketClientConfiguration(
            closeTimeout: .seconds(5), autoPing: .enabled(timePeriod: pingPeriod))
    }

    /// Runs until cancelled. `cursor` is asked before every connection.
    package func run(
        cursor: @escaping @Sendable () async throws -> Int64?, receive: @escaping @Sendable ([UInt8]) async -> Void
    ) async throws {
        var backoff = Backoff(first: .seconds(1), most: .seconds(60))
        while true {
            try Task.checkCancellation()
            let address = try await self.address(cursor: cursor())
            let heard = Heard()
            do {
                _ = try await WebSocketClient.connect(url: address, configuration: configuration, logger: logger) {
                    inbound, _, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await message in inbound.messages(maxSize: Self.maximumMessage) {
                                heard.message()
                                guard case .text(let text) = message else { continue }
                                await receive(Array(text.utf8))
                            }
                        }
                        group.addTask { try await watchForSilence(since: heard) }
                        // Whichever ends first (the stream, or the silence) ends the connection.
                        try await group.next()
                        group.cancelAll()
                    }
                }
                logger.info("Jetstream closed the connection; reconnecting", metadata: ["url": "\(address)"])
            } catch let error as CancellationError {
                throw error
            } catch is JetstreamSilence {
                logger.warning(
                    "Jetstream sent nothing for \(silence); reopening the connection from the cursor",
                    metadata: ["url": "\(address)"])
            } catch {
                // Once per outage: while it lasts, the retries are logged at debug level only.
                let level: Logger.Level = backoff.hasFailed ? .debug : .warning
                logger.log(
                    level: level,
                    """
                    Jetstream (\(address)): \(HTTPExchange.reason(error)); retrying in \(backoff.pause), then after \
                    growing pauses up to a minute
                    """)
            }
            if heard.anything { backoff.reset() }
            try await Task.sleep(for: backoff.next())
        }
    }

    /// Returns never: throws `JetstreamSilence` once nothing has been heard for `silence`.
    private func watchForSilence(since heard: Heard) async throws {
        while true {
            let deadline = heard.last + silence
            if ContinuousClock.now >= deadline { throw JetstreamSilence() }
            try await Task.sleep(until: deadline)
        }
    }

    /// The subscription's address: posts only, from `cursor` (µs) when there is one.
    func address(cursor: Int64?) -> String {
        let separator = url.contains("?") ? "&" : "?"
        return url + separator + "wantedCollections=app.bsky.feed.post" + (cursor.map { "&cursor=\($0)" } ?? "")
    }
}

/// A connection that has carried nothing for too long.
struct JetstreamSilence: Error {}

/// What one connection has heard: whether anything, and when last (its start, before the first message).
private final class Heard: Sendable {
    private let state = Mutex((anything: false, last: ContinuousClock.now))

    var anything: Bool { state.withLock { $0.anything } }
    var last: ContinuousClock.Instant { state.withLock { $0.last } }

    func message() {
        state.withLock { $0 = (true, .now) }
    }
}
