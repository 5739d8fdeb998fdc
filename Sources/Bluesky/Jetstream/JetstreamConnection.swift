import HTTPExchange
import Logging
import Posts
import Synchronization
import WSClient

/// Jetstream over a WebSocket (`wantedCollections=app.bsky.feed.post`, no account needed): every message goes to
/// `receive`; after a close or a failure it reconnects with growing pauses (1 s doubling to a minute, back to 1 s
/// once messages flow again), asking for the events from the cursor the caller has committed.
package struct JetstreamConnection: Sendable {
    /// One of Bluesky's public Jetstream hosts.
    package static let defaultURL = "wss://jetstream2.us-east.bsky.network/subscribe"
    /// Jetstream's events are a few KB; a message past this is not an event.
    static let maximumMessage = 1 << 20

    let url: String
    let logger: Logger

    package init(url: String, logger: Logger) {
        self.url = url
        self.logger = logger
    }

    /// Runs until cancelled. `cursor` is asked before every connection.
    package func run(
        cursor: @escaping @Sendable () async throws -> Int64?, receive: @escaping @Sendable ([UInt8]) async -> Void
    ) async throws {
        var backoff = Backoff(first: .seconds(1), most: .seconds(60))
        while true {
            try Task.checkCancellation()
            let address = try await self.address(cursor: cursor())
            let received = Mutex(false)
            do {
                _ = try await WebSocketClient.connect(url: address, logger: logger) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: Self.maximumMessage) {
                        received.withLock { $0 = true }
                        guard case .text(let text) = message else { continue }
                        await receive(Array(text.utf8))
                    }
                }
                logger.info("Jetstream closed the connection; reconnecting", metadata: ["url": "\(address)"])
            } catch let error as CancellationError {
                throw error
            } catch {
                // Once per outage: while it lasts, the retries are logged at debug level only.
                let level: Logger.Level = backoff.hasFailed ? .debug : .warning
                logger.log(
                    level: level,
                    """
                    Jetstream connection failed; retrying in \(backoff.pause), then after growing pauses up to a \
                    minute
                    """,
                    metadata: ["url": "\(address)", "error": "\(error)"])
            }
            if received.withLock({ $0 }) { backoff.reset() }
            try await Task.sleep(for: backoff.next())
        }
    }

    /// The subscription's address: posts only, from `cursor` (µs) when there is one.
    func address(cursor: Int64?) -> String {
        let separator = url.contains("?") ? "&" : "?"
        return url + separator + "wantedCollections=app.bsky.feed.post" + (cursor.map { "&cursor=\($0)" } ?? "")
    }
}
