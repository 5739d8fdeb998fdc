import AppStore
import Foundation
import HTTPExchange
import Logging
import Mastodon
import PostgresSupport
import Posts
import ServiceLifecycle
import SmashtagApp
import StubMastodon
import StubServer
import TestSupport
import Testing

@testable import Tracking

/// Issue 53: a term tracked over three Mastodon servers asked as one (the third answering as GoToSocial, with the
/// token): each keeps its own place, one failing is named and the others go on, and every post is counted once,
/// with the servers that gave it.
struct FleetTrackingTests {
    static let domains = ["a.example", "b.example", "c.example"]

    /// Post `number`'s own server and the servers that serve it.
    static func servers(of number: Int) -> (home: Int, on: [Int]) {
        let home = number % 3
        return (home, (0..<3).filter { $0 == home || number % ($0 + 2) == 0 })
    }

    /// Posts `numbers` as each stub serves them: ids of its own, the same `uri` everywhere.
    static func serve(_ numbers: ClosedRange<Int>, on stubs: [StubMastodon]) {
        for (server, stub) in stubs.enumerated() {
            stub.serve(
                numbers.filter { servers(of: $0).on.contains(server) }.map { number in
                    let home = servers(of: number).home
                    let origin =
                        home == server ? nil : StubMastodon.Origin(home: domains[home], uri: uri(number, stubs))
                    return StubMastodon.Status(
                        id: 1000 * (server + 1) + number * (server + 2), tags: ["fedi"], author: "u\(number % 4)",
                        origin: origin, second: number * 10, mentions: [mentioned(number)])
                })
        }
    }

    /// Whom post `number` mentions: one of four people, on one of the three servers.
    static func mentioned(_ number: Int) -> String {
        "p\(number % 4)@\(domains[(number / 4) % 3])"
    }

    static func uri(_ number: Int, _ stubs: [StubMastodon]) -> String {
        let home = servers(of: number).home
        return stubs[home].uri(of: .init(id: 1000 * (home + 1) + number * (home + 2), author: "u\(number % 4)"))
    }

    /// A minute for each answer: in the full suite the stand-ins share the machine with CPU-heavy tests.
    static var patient: MastodonClient.Policy {
        var policy = MastodonClient.Policy()
        policy.deadline = .seconds(60)
        return policy
    }

    /// SQLite in memory, and PostgreSQL when `scripts/test` has started a cluster.
    static var stores: [String] { TestPostgres.url == nil ? ["sqlite"] : ["sqlite", "postgresql"] }

    static func open(_ store: String) async throws -> AppDatabase {
        guard store == "postgresql" else { return try AppDatabase.inMemory() }
        let url = try PostgresURL(try await TestPostgres.newDatabase())
        let database = try await AppDatabase.connect(to: url, logger: Logger(label: "test"))
        if let service = database.service { Task { try await service.run() } }
        return database
    }

    @Test(arguments: stores) func trackingOverThreeServersCountsEachPostOnceAndSurvivesOneFailing(
        store: String
    ) async throws {
        try await StubMastodon.run(domain: Self.domains[0]) { a, portA in
            try await StubMastodon.run(domain: Self.domains[1]) { b, portB in
                try await StubMastodon.run(domain: Self.domains[2], flavor: .goToSocial) { c, portC in
                    try await track([a, b, c], ports: [portA, portB, portC], on: try await Self.open(store))
                }
            }
        }
    }

    private func track(_ stubs: [StubMastodon], ports: [Int], on database: AppDatabase) async throws {
        let terms = TrackedTerms(database: database)
        try await terms.track("#fedi", TrackingPlan(every: 10, backfill: 10))
        let fleet = MastodonFleet(
            configurations: ports.enumerated().map { index, port in
                MastodonConfiguration(instance: "http://127.0.0.1:\(port)", token: index == 2 ? BearerToken("t") : nil)
            }, policy: Self.patient)
        let sources = SourceSet([NamedSource(name: "mastodon", title: fleet.title, source: fleet)])
        var options = Tracker.Options()
        options.pageSize = 10
        let tracker = Tracker(terms: terms, sources: sources, options: options, logger: TrackerTests.logger)

        Self.serve(1...40, on: stubs)
        try await TrackerTests.runOnce(tracker, terms, "#fedi")
        stubs[1].fail(with: StubFailure(status: 502))
        Self.serve(1...60, on: stubs)
        try await TrackerTests.runOnce(tracker, terms, "#fedi")
        let during = try #require(try await terms.term("#fedi")?.source("mastodon"))
        #expect(during.error == nil, "the others went on")
        #expect(during.gap?.contains("Mastodon (127.0.0.1:\(ports[1])) failed with status 502") == true)
        stubs[1].fail(with: nil)
        Self.serve(1...75, on: stubs)
        for _ in 0..<12 { try await TrackerTests.runOnce(tracker, terms, "#fedi") }

        let term = try #require(try await terms.term("#fedi"))
        #expect(term.posts == 75, "every post once, whichever servers gave it and whenever")
        #expect(term.source("mastodon").gap == nil, "the failure is not said once every server answers again")
        let table = try await Popularity(database: database).table(for: "#fedi")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#fedi", count: 75)])
        // A recount: each person mentioned is one person whatever server wrote the post (`p1` on a.example's own
        // posts is `p1@a.example`, as on the others).
        let recount = Dictionary(grouping: 1...75) { "@" + Self.mentioned($0) }.filter { $0.value.count > 1 }
            .mapValues(\.count)
        let users = Dictionary(uniqueKeysWithValues: table.rows(.users).map { ($0.mention, $0.count) })
        #expect(users == recount)
        let origins = try #require(try await Origins(database: database).of("#fedi"))
        let written = Dictionary(grouping: 1...75) { Self.domains[Self.servers(of: $0).home] }.mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: origins.writtenOn.map { ($0.server, $0.posts) }) == written)
        let gave = Dictionary(
            uniqueKeysWithValues: (0..<3).map { server in
                ("127.0.0.1:\(ports[server])", (1...75).filter { Self.servers(of: $0).on.contains(server) }.count)
            })
        #expect(Dictionary(uniqueKeysWithValues: origins.seenOn.map { ($0.server, $0.posts) }) == gave)
    }

    /// Each server keeps its own budget: one whose window is down to the fifth kept for people's searches is passed
    /// over by the tracker (said, its place kept) while the others are collected; a person's search still asks it.
    @Test func aServerKeepingItsLastFifthForSearchesIsPassedOverByTheTracker() async throws {
        try await StubMastodon.run(domain: Self.domains[0]) { a, portA in
            try await StubMastodon.run(domain: Self.domains[1]) { b, portB in
                let database = try AppDatabase.inMemory()
                let terms = TrackedTerms(database: database)
                try await terms.track("#fedi", TrackingPlan(every: 10))
                let fleet = MastodonFleet(
                    configurations: [portA, portB].map { MastodonConfiguration(instance: "http://127.0.0.1:\($0)") },
                    policy: Self.patient)
                let sources = SourceSet([NamedSource(name: "mastodon", title: fleet.title, source: fleet)])
                let tracker = Tracker(terms: terms, sources: sources, logger: TrackerTests.logger)
                a.serve((1...3).map { .init(id: $0, tags: ["fedi"], second: $0) })
                b.serve((4...6).map { .init(id: $0, tags: ["fedi"], second: $0) })
                b.limitRate(StubMastodon.RateLimit(limit: 300, remaining: 30, reset: Date().addingTimeInterval(300)))
                try await TrackerTests.runOnce(tracker, terms, "#fedi")
                #expect(try await terms.term("#fedi")?.posts == 6)
                let asked = b.requests.count
                a.serve((1...4).map { .init(id: $0, tags: ["fedi"], second: $0 * 2) })
                try await TrackerTests.runOnce(tracker, terms, "#fedi")
                #expect(b.requests.count == asked, "the tracker sends it nothing in the last fifth")
                let state = try #require(try await terms.term("#fedi")?.source("mastodon"))
                #expect(
                    state.error == nil && state.gap?.contains("waiting for its rate limit, kept for searches") == true)
                #expect(try await terms.term("#fedi")?.posts == 7, "the other server's new post is counted")
                _ = try await SearchSessions(database: database).fetch("#fedi", from: sources, at: .newest)
                #expect(b.requests.count > asked, "a person's search still asks it")
            }
        }
    }
}
