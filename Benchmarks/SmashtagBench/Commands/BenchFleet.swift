import ArgumentParser
import Foundation
import Mastodon
import Posts
import StubMastodon

/// Several Mastodon servers asked as one (issue 53): ten stand-ins that answer after fixed delays (20 ms, 30 ms, …
/// 110 ms), sharing posts under ids of their own. The first page's time against the slowest server's (target: within
/// its time + 50 ms), beside one server asked alone at that delay (the baseline, same run); and merging ten answers of
/// 40 posts each, half of them shared, with deduplication (target: ≤ 2 ms).
struct BenchFleet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet", abstract: "Time a first page from ten Mastodon stand-ins, and the merge of their answers."
    )

    @Option(help: "Pages asked of the fleet (and of the single server).")
    var requests = 200

    @Option(help: "Merges timed.")
    var merges = 2000

    static let servers = 10
    static let first = 20
    static let step = 10

    func run() async throws {
        try await Self.withStubs(Self.servers) { stubs, ports in
            for (index, stub) in stubs.enumerated() {
                stub.serve(Self.statuses(on: index))
                stub.answerAfter(.milliseconds(Self.first + Self.step * index))
            }
            let slowest = Double(Self.first + Self.step * (Self.servers - 1))
            let fleet = MastodonFleet(
                configurations: ports.map { MastodonConfiguration(instance: "http://127.0.0.1:\($0)") })
            let alone = MastodonClient(
                configuration: MastodonConfiguration(instance: "http://127.0.0.1:\(ports.last!)"))
            let request = SearchRequest(query: "#fedi", count: 40)
            var (together, single) = (Latencies(), Latencies())
            for _ in 0..<10 { _ = try await fleet.search(request) }
            for _ in 0..<requests {
                try await together.measure { _ = try await fleet.search(request) }
                try await single.measure { _ = try await alone.search(request) }
            }
            let page = try await fleet.search(request)
            print(
                "first page of 40 from \(Self.servers) servers (the slowest answers after \(Int(slowest)) ms), "
                    + "\(requests) pages:"
            )
            print(
                String(
                    format: "  fleet   p50 %.1f ms  p99 %.1f ms  (p99 − slowest %.1f ms)", together.percentile(0.5),
                    together.percentile(0.99), together.percentile(0.99) - slowest))
            print(
                String(
                    format: "  alone   p50 %.1f ms  p99 %.1f ms  (the slowest server asked by itself)",
                    single.percentile(0.5), single.percentile(0.99)))
            print(
                "  the page: \(page.posts.count) posts, "
                    + "seen on \(page.posts.map(\.seenOn.count).reduce(0, +)) servers in all"
            )
        }
        var merging = Latencies()
        let answers = Self.answers()
        let merge = FleetMerge(
            request: SearchRequest(query: "#fedi", count: 40), direction: .newest, incoming: FleetPosition(),
            servers: (0..<Self.servers).map { "s\($0).example" })
        var kept = 0
        for _ in 0..<merges { merging.measureNow { kept = merge.page(answers).posts.count } }
        print(
            String(
                format: "merge of %d × 40 posts (%d kept once): p50 %.3f ms  p99 %.3f ms", Self.servers, kept,
                merging.percentile(0.5), merging.percentile(0.99)))
    }

    /// Post `n` (1…400, newest last) is written on server `n % 10` and served by it and the next two: each server
    /// has 120 posts, each post is on three servers.
    static func statuses(on server: Int) -> [StubMastodon.Status] {
        (1...400).filter { n in (0..<3).contains((server - n % servers + servers) % servers) }.map { n in
            let home = n % servers
            return StubMastodon.Status(
                id: 1000 * (server + 1) + n, tags: ["fedi"], author: "u\(n % 7)",
                origin: home == server
                    ? nil : .init(home: "127.0.0.1", uri: "https://s\(home).example/users/u\(n % 7)/statuses/\(n)"),
                second: n)
        }
    }

    /// Ten answers of 40 posts each, as the merge gets them: every post on two servers.
    static func answers() -> [FleetMerge.Answer] {
        (0..<servers).map { server in
            let numbers = (0..<40).map { 400 - 2 * $0 - (server % 2) }
            let posts = numbers.map { n in
                Post(
                    network: .mastodon, id: "\(server)\(n)",
                    created: Date(timeIntervalSince1970: 1_790_000_000 + Double(n)),
                    author: Author(handle: "u\(n % 7)@s\(n % servers).example", name: "U"), text: "post \(n) #fedi")
            }
            let uris = Dictionary(
                uniqueKeysWithValues: numbers.map {
                    ("\(server)\($0)", "https://s\($0 % servers).example/users/u/statuses/\($0)")
                })
            return FleetMerge.Answer(server: "s\(server).example", posts: posts, uris: uris, hasOlder: true)
        }
    }

    /// Runs `body` with `count` stand-ins listening.
    static func withStubs<T: Sendable>(
        _ count: Int, _ stubs: [StubMastodon] = [], _ ports: [Int] = [],
        _ body: ([StubMastodon], [Int]) async throws -> T
    ) async throws -> T {
        guard stubs.count < count else { return try await body(stubs, ports) }
        return try await StubMastodon.run(domain: "s\(stubs.count).example") { stub, port in
            try await withStubs(count, stubs + [stub], ports + [port], body)
        }
    }
}
