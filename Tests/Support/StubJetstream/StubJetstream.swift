import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import StubServer
import Synchronization

/// A stand-in Jetstream for tests: a real WebSocket server on a free port of 127.0.0.1 that sends the events it
/// holds from the `cursor` a client asks for (every event at or after it, as Jetstream does), and can drop each
/// connection after a number of events, or fall silent without closing it (as a half-open socket does), so clients
/// must notice, reconnect and resume.
public final class StubJetstream: Sendable {
    /// Each event's JSON and its `time_us`.
    public let events: [(time: Int64, json: String)]
    /// Events sent on a connection before the server closes it; nil keeps it open.
    let dropAfter: Int?
    /// Events sent on the first connection before it falls silent: open but sending nothing.
    let silentAfter: Int?
    /// Whether a silent connection still answers pings (a stream that stopped) or not (a half-open socket).
    let answersPings: Bool
    /// A pause between events, so a test can stop a client mid-stream.
    let pace: Duration
    private let asked = Mutex<[String]>([])

    public init(
        events: [(time: Int64, json: String)], dropAfter: Int? = nil, silentAfter: Int? = nil,
        answersPings: Bool = true, pace: Duration = .zero
    ) {
        (self.events, self.dropAfter, self.pace) = (events, dropAfter, pace)
        (self.silentAfter, self.answersPings) = (silentAfter, answersPings)
    }

    /// The query strings of every connection so far (`wantedCollections=…&cursor=…`).
    public var connections: [String] { asked.withLock { $0 } }

    /// Serves while `body` runs with the address to connect to (`ws://127.0.0.1:PORT/subscribe`).
    public func run<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        try await StubServer.serve(
            { running in
                Application(
                    router: Router(),
                    server: .http1WebSocketUpgrade { [self] request, _, _ in
                        guard request.path?.hasPrefix("/subscribe") == true else { return .dontUpgrade }
                        let query =
                            request.path.flatMap { $0.split(separator: "?", maxSplits: 1).dropFirst().first }.map(
                                String.init) ?? ""
                        let first = asked.withLock { asked in
                            asked.append(query)
                            return asked.count == 1
                        }
                        return .upgrade([:]) { inbound, outbound, _ in
                            // Pings are answered only while the inbound frames are read.
                            let reading = Task { if self.answersPings { for try await _ in inbound {} } }
                            defer { reading.cancel() }
                            try await self.send(
                                from: Self.cursor(in: query), to: outbound, count: first ? self.silentAfter : nil)
                        }
                    },
                    configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: running
                )
            }, { port in try await body("ws://127.0.0.1:\(port)/subscribe") })
    }

    /// Sends the events due (at most `count`, else `dropAfter`), then closes, or with `count` or nothing to drop
    /// after, stays open and quiet.
    private func send(from cursor: Int64?, to outbound: WebSocketOutboundWriter, count: Int?) async throws {
        let due = events.filter { cursor == nil || $0.time >= cursor! }
        for event in due.prefix(count ?? dropAfter ?? due.count) {
            try await outbound.write(.text(event.json))
            if pace > .zero { try await Task.sleep(for: pace) }
        }
        if count != nil || dropAfter == nil { try await Task.sleep(for: .seconds(3600)) }
    }

    private static func cursor(in query: String) -> Int64? {
        query.split(separator: "&").first { $0.hasPrefix("cursor=") }.flatMap { Int64($0.dropFirst("cursor=".count)) }
    }
}
