import AppStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Posts
import SmashtagApp
import Synchronization
import Testing

@testable import SmashtagWeb

/// The server's connections on a real socket: a client that never finishes its request is dropped after the idle
/// timeout without holding anyone else up, and a live event stream is never cut by it.
@Suite struct ConnectionTests {
    static let idleTimeout = Duration.seconds(1)

    @Test func clientsThatNeverFinishTheirHeadersAreDroppedAndOthersAreServed() async throws {
        let directory = try await WebFixture.dataDirectory()
        let app = try await buildApplication(TestArguments(dataDirectory: directory, idleTimeout: Self.idleTimeout))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var stalled: [RawConnection] = []
            for _ in 0..<50 {
                let connection = try await RawConnection.open(port: port)
                // Under load the server may already have dropped it for idling: that is what is tested.
                try? await connection.send("GET /search HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Never-Ends: ")
                stalled.append(connection)
            }
            // Each on a connection of its own: the test client's, idle while the stalled ones were opened, may have
            // been dropped for idling too under load.
            for path in ["/api/recents", "/search"] {
                let served = try await RawConnection.open(port: port)
                try await served.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                #expect(await served.receives("HTTP/1.1 200 OK", within: .seconds(5)), "\(path) served")
            }
            for connection in stalled { #expect(await connection.isClosed(within: .seconds(5))) }
        }
    }

    @Test func aLiveEventStreamOutlastsTheIdleTimeout() async throws {
        let directory = try await WebFixture.dataDirectory()
        let app = try await buildApplication(TestArguments(dataDirectory: directory, idleTimeout: Self.idleTimeout))
        try await app.test(.live) { client in
            let stream = try await RawConnection.open(port: try #require(client.port))
            try await stream.send(
                "GET /api/popularity/events?term=%23\(WebFixture.hostileTag) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            try await Task.sleep(for: Self.idleTimeout * 2.5)
            #expect(!(await stream.isClosed(within: .zero)))
            // Another process's search: the stream hears of it through the database.
            let other = try await WebFixture.site(in: directory)
            _ = try await other.sessions.fetch("#" + WebFixture.hostileTag, from: other.sources, at: .newest)
            #expect(await stream.receives("@mallory", within: .seconds(5)))
        }
    }
}

/// A TCP connection that writes exactly what a test gives it and keeps what comes back.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let received: Received

    private init(channel: any Channel, received: Received) {
        self.channel = channel
        self.received = received
    }

    static func open(port: Int) async throws -> RawConnection {
        let received = Received()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.pipeline.addHandler(received) }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, received: received)
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    func isClosed(within limit: Duration) async -> Bool {
        await holds(within: limit) { !self.channel.isActive }
    }

    func receives(_ text: String, within limit: Duration) async -> Bool {
        await holds(within: limit) { self.received.text.contains(text) }
    }

    /// Everything received so far.
    var text: String { received.text }

    func close() async throws {
        try await channel.close()
    }
}

/// Whether `condition` holds within `limit`, asked every 50 ms: a bounded wait for what nothing announces.
func holds(within limit: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
    return condition()
}

/// Keeps every byte a connection receives.
private final class Received: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    private let bytes = Mutex(ByteBuffer())

    var text: String { bytes.withLock { String(buffer: $0) } }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        bytes.withLock { _ = $0.writeBuffer(&buffer) }
    }
}
