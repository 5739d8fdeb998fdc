import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Posts
import Synchronization

/// Many live Popularity streams on one running server, and what they cost it: the streams are opened in batches,
/// the server's resident memory is read before and after (from `/proc/PID/status`), then a burst of searches through
/// the server changes the terms' counts, and the run waits — bounded — until every stream's last `table` event equals
/// the term's final `/api/popularity`. The floor it is compared with: as many keep-alive connections that each made
/// one ordinary request and stay open, which is what the server spends on a connection before any stream.
struct BenchStreams: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams", abstract: "Memory per live Popularity stream, and every stream's final counts.")

    @Option(help: "The server's port on 127.0.0.1.")
    var port: Int

    @Option(help: "The server's process id, for its resident memory.")
    var pid: Int32

    @Option(help: "Streams to open.")
    var streams = 10_000

    @Option(
        help: "Terms the streams listen to, comma-separated (stream i listens to term i mod count); each in Recents.")
    var terms: String

    @Option(help: "Searches of the burst: pages of older posts, the terms in turn.")
    var searches = 40

    @Option(help: "Seconds every stream has to receive the final counts after the burst.")
    var deadline = 60

    @Flag(help: "Open plain keep-alive connections instead of streams (the floor), then stop.")
    var floor = false

    func run() async throws {
        let terms = terms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !terms.isEmpty else { throw ValidationError("Give at least one term.") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let opened = ContinuousClock.now
        let before = try Resident.kilobytes(of: pid)
        let listeners = try await open(terms: terms, on: group)
        let connectSeconds = (ContinuousClock.now - opened).seconds
        try await Task.sleep(for: .seconds(2))  // the server's allocator settles
        let after = try Resident.kilobytes(of: pid)
        let closed = listeners.filter(\.closed).count
        guard closed == 0 else {
            throw BenchFailure("the server closed \(closed) connections before they were measured")
        }
        note("\(listeners.count) \(floor ? "connections" : "streams") open in \(connectSeconds) s")
        var result = StreamsBenchResult(
            kind: floor ? "keep-alive connections (floor)" : "live Popularity streams", connections: listeners.count,
            connectSeconds: connectSeconds, residentBeforeMB: Double(before) / 1024,
            residentAfterMB: Double(after) / 1024,
            kilobytesPerConnection: Double(after - before) / Double(listeners.count))
        if !floor { try await burst(terms, listeners, into: &result) }
        report(result)
        for listener in listeners { try? await listener.channel.close() }
        try await group.shutdownGracefully()
    }

    /// Opens the connections 250 at a time, each batch waiting for its first answers (a table, or the floor's one
    /// response), so the server's accept queue never overflows.
    private func open(terms: [String], on group: any EventLoopGroup) async throws -> [Listener] {
        var listeners: [Listener] = []
        for batch in stride(from: 0, to: streams, by: 250) {
            let batchListeners = try await withThrowingTaskGroup(of: Listener.self) { tasks in
                for index in batch..<min(batch + 250, streams) {
                    let path =
                        floor
                        ? "/api/recents" : "/api/popularity/events?term=\(URLQuery.encode(terms[index % terms.count]))"
                    tasks.addTask {
                        try await Listener.connect(port: port, path: path, term: index % terms.count, group)
                    }
                }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
            for listener in batchListeners { try await listener.firstAnswer(within: .seconds(60)) }
            listeners += batchListeners
        }
        return listeners
    }

    /// Searches older pages of the terms through the server, then waits until every stream has its term's final
    /// table.
    private func burst(_ terms: [String], _ listeners: [Listener], into result: inout StreamsBenchResult) async throws {
        let before = terms.indices.map { index in listeners.first { $0.term == index }?.lastTable }
        let counted = ContinuousClock.now
        var older: [String?] = Array(repeating: nil, count: terms.count)
        for search in 0..<searches {
            let index = search % terms.count
            let before = older[index].map { "&before=" + URLQuery.encode($0) } ?? ""
            let page = try await HTTPGet.json("/api/search?q=\(URLQuery.encode(terms[index]))&count=100\(before)", port)
            older[index] = page["older"] as? String
        }
        let finals = try await terms.asyncMap { term in
            try await HTTPGet.text("/api/popularity?term=\(URLQuery.encode(term))", port)
        }
        let burstDone = ContinuousClock.now
        result.termsChanged = zip(before, finals).filter { $0 != $1 }.count
        guard result.termsChanged! > 0 else {
            throw BenchFailure("the burst changed no term's counts: its pages were counted before (a used app store?)")
        }
        let limit = burstDone + .seconds(deadline)
        var late = listeners.filter { $0.lastTable != finals[$0.term] }
        while !late.isEmpty, ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(100))
            late = late.filter { $0.lastTable != finals[$0.term] }
        }
        result.searches = searches
        result.burstSeconds = (burstDone - counted).seconds
        result.allFinalAfterSeconds = late.isEmpty ? (ContinuousClock.now - burstDone).seconds : nil
        result.streamsWithoutFinalCounts = late.count
        let events = listeners.map(\.events)
        result.eventsPerStream = [events.min() ?? 0, events.max() ?? 0]
        result.residentAtEndMB = Double(try Resident.kilobytes(of: pid)) / 1024
        if !late.isEmpty {
            throw BenchFailure("\(late.count) streams did not receive the final counts in \(deadline) s")
        }
    }
}

struct StreamsBenchResult: Encodable {
    let kind: String
    let connections: Int
    let connectSeconds: Double
    let residentBeforeMB: Double
    let residentAfterMB: Double
    let kilobytesPerConnection: Double
    var searches: Int?
    var termsChanged: Int?
    var burstSeconds: Double?
    var allFinalAfterSeconds: Double?
    var streamsWithoutFinalCounts: Int?
    var eventsPerStream: [Int]?
    var residentAtEndMB: Double?
}

/// One connection of the load: it sends its request, then keeps the last `table` event's data (or, for the floor,
/// notes its one response) as the event loop reads it.
private final class Listener: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private struct State {
        var channel: (any Channel)?
        var answered = false
        var closed = false
        var events = 0
        var lastTable: String?
        var pending: [UInt8] = []
        var data: [String] = []
    }

    let term: Int
    private let path: String
    private let state = Mutex(State())

    private init(term: Int, path: String) {
        self.term = term
        self.path = path
    }

    var channel: any Channel { state.withLock { $0.channel! } }
    var events: Int { state.withLock { $0.events } }
    var closed: Bool { state.withLock { $0.closed } }
    var lastTable: String? { state.withLock { $0.lastTable } }

    static func connect(port: Int, path: String, term: Int, _ group: any EventLoopGroup) async throws -> Listener {
        let listener = Listener(term: term, path: path)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(listener)
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        listener.state.withLock { $0.channel = channel }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(contentsOf: browserHeaders(port: port))
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        return listener
    }

    func firstAnswer(within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while !state.withLock({ $0.answered }) {
            guard ContinuousClock.now < deadline else { throw BenchFailure("no answer on \(path) in \(limit)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: break
        case .body(let buffer): read(buffer)
        case .end: state.withLock { $0.answered = true }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLock { $0.closed = true }
    }

    /// Server-sent events, line by line: `data:` lines gather until a blank line ends the event.
    private func read(_ buffer: ByteBuffer) {
        state.withLock { state in
            state.pending += buffer.readableBytesView
            var start = 0
            while let newline = state.pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = state.pending[start..<newline]
                if line.starts(with: Self.dataPrefix) {
                    state.data.append(String(decoding: line.dropFirst(Self.dataPrefix.count), as: UTF8.self))
                } else if line.isEmpty, !state.data.isEmpty {
                    state.lastTable = state.data.joined(separator: "\n")
                    state.data = []
                    state.events += 1
                    state.answered = true
                }
                start = newline + 1
            }
            state.pending.removeFirst(start)
        }
    }

    private static let dataPrefix = Array("data: ".utf8)
}

/// What Safari on an iPhone sends with an `EventSource`'s request, so the server holds what it would hold for a
/// person's page.
private func browserHeaders(port: Int) -> [(String, String)] {
    [
        ("Host", "127.0.0.1:\(port)"), ("Accept", "text/event-stream"), ("Cache-Control", "no-cache"),
        (
            "User-Agent",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/18.0 Mobile/15E148 Safari/604.1"
        ),
        ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty"),
        ("Referer", "http://127.0.0.1:\(port)/recents/popularity?term=%23stanford"),
        ("Accept-Encoding", "gzip, deflate, br"), ("Accept-Language", "en-GB,en;q=0.9"),
        ("Cookie", "csrf=Q2hhbmdlIG1lOiBhIHRva2VuIG9mIDMyIGJ5dGVzLg; sources=corpus,mastodon"),
        ("Connection", "keep-alive"),
    ]
}

/// One GET to the server under test.
private enum HTTPGet {
    static func text(_ path: String, _ port: Int) async throws -> String {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok else { throw BenchFailure("GET \(path) answered \(response.status.code)") }
        return String(buffer: body)
    }

    static func json(_ path: String, _ port: Int) async throws -> [String: Any] {
        let text = try await text(path, port)
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }
}

/// A process's resident memory, as Linux reports it.
enum Resident {
    static func kilobytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { throw BenchFailure("no VmRSS for process \(pid)") }
        return kilobytes
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
