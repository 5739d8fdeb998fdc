import AppStore
import Corpus
import Foundation
import Logging
import Mastodon
import Posts
import SmashtagApp
import StubMastodon
import StubServer
import TestSupport
import Testing

@testable import Tracking

/// The tracker over real components: an app store, a corpus that grows while it runs, and a stand-in Mastodon that
/// rate-limits and fails as the network does.
struct TrackerTests {
    /// A quiet logger: failures are what these tests cause on purpose.
    static var logger: Logger {
        var logger = Logger(label: "tracker-test")
        logger.logLevel = .critical
        return logger
    }

    /// Posts `ids` by @poster tagged `#a`, at a second each.
    static func posts(_ ids: ClosedRange<Int>) -> [Post] {
        ids.map { TestPosts.post($0, by: "poster", "#a @m\($0 % 3)") }
    }

    /// The term's due claim: one run of it, as the loop runs it.
    static func runOnce(_ tracker: Tracker, _ terms: TrackedTerms, _ term: String) async throws {
        let claimed = try await terms.claimDue(now: .distantFuture, lease: .seconds(1), limit: 10, only: [term])
        for term in claimed { await tracker.collect(term) }
    }

    /// A tracker over a fresh store with `term` tracked, fetching from the stand-in Mastodon at `port`.
    static func mastodonTracker(
        port: Int, tracking term: String = "#a", _ plan: TrackingPlan = TrackingPlan(every: 10)
    ) async throws -> (AppDatabase, TrackedTerms, MastodonClient, SourceSet, Tracker) {
        let database = try AppDatabase.inMemory()
        let terms = TrackedTerms(database: database)
        try await terms.track(term, plan)
        let mastodon = MastodonClient(configuration: MastodonConfiguration(instance: "http://127.0.0.1:\(port)"))
        let sources = SourceSet([NamedSource(name: "mastodon", title: "Mastodon (stub)", source: mastodon)])
        return (database, terms, mastodon, sources, Tracker(terms: terms, sources: sources, logger: logger))
    }

    @Test func newPostsAreCountedWithoutASearchAndOnlyOnce() async throws {
        let database = try AppDatabase.inMemory()
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add(Self.posts(1...30))
        let terms = TrackedTerms(database: database)
        try await terms.track("#a", TrackingPlan(every: 10))
        var options = Tracker.Options()
        options.pageSize = 20
        let tracker = Tracker(
            terms: terms, sources: SourceSet(only: CorpusSource(corpus: corpus)), options: options, logger: Self.logger)

        try await Self.runOnce(tracker, terms, "#a")
        #expect(try await terms.term("#a")?.posts == 20, "the first run takes the newest page")
        _ = try await corpus.add(Self.posts(31...75))
        try await Self.runOnce(tracker, terms, "#a")
        try await Self.runOnce(tracker, terms, "#a")
        let term = try #require(try await terms.term("#a"))
        #expect(term.posts == 65, "posts 11…75: the newer walk follows every page, and nothing twice")
        #expect(term.fetched != nil && term.due > Date() && term.due <= Date().addingTimeInterval(10))
        let table = try await Popularity(database: database).table(for: "#a")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#a", count: 65)])
        #expect(table.rows(.users).map(\.count).reduce(0, +) == 65)
        #expect(try await Recents(database: database).terms() == ["#a"])
    }

    /// Issue 55: the GUIDE said the first run made "the same newer walk a search makes"; it takes the source's newest
    /// page whatever a search had shown (the GUIDE now says so), each post counted once with the search's.
    @Test func aFirstRunAfterASearchTakesTheNewestPageAndCountsTheSearchsPostsOnce() async throws {
        let database = try AppDatabase.inMemory()
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add(Self.posts(1...30))
        let sources = SourceSet(only: CorpusSource(corpus: corpus))
        _ = try await SearchSessions(database: database).fetch("#a", from: sources, at: .newest, count: 5)
        let terms = TrackedTerms(database: database)
        try await terms.track("#a", TrackingPlan(every: 10))
        var options = Tracker.Options()
        options.pageSize = 20
        let tracker = Tracker(terms: terms, sources: sources, options: options, logger: Self.logger)

        try await Self.runOnce(tracker, terms, "#a")
        let table = try await Popularity(database: database).table(for: "#a")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#a", count: 20)], "posts 11…30, 26…30 once")
    }

    @Test func olderPagesAreWalkedOnceWhenAskedFor() async throws {
        let database = try AppDatabase.inMemory()
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add(Self.posts(1...50))
        let terms = TrackedTerms(database: database)
        try await terms.track("#a", TrackingPlan(every: 10, backfill: 5))
        var options = Tracker.Options()
        options.pageSize = 20
        let tracker = Tracker(
            terms: terms, sources: SourceSet(only: CorpusSource(corpus: corpus)), options: options, logger: Self.logger)
        for _ in 0..<4 { try await Self.runOnce(tracker, terms, "#a") }
        let term = try #require(try await terms.term("#a"))
        #expect(term.posts == 50 && term.plan.backfill == 0, "the newest page, two older ones, then nothing older")
    }

    @Test func aSourceThatFailsKeepsItsPlaceAndWaitsLongerEachTime() async throws {
        try await StubMastodon.run { stub, port in
            let (_, terms, _, _, tracker) = try await Self.mastodonTracker(port: port)
            stub.serve((1...5).map { StubMastodon.Status(id: $0, tags: ["a"]) })
            try await Self.runOnce(tracker, terms, "#a")
            #expect(try await terms.term("#a")?.posts == 5)

            stub.fail(with: StubFailure(status: 500))
            try await Self.runOnce(tracker, terms, "#a")
            let first = try #require(try await terms.term("#a")?.source("mastodon"))
            #expect(first.failures == 1 && first.error?.contains("500") == true && first.newer != nil)
            let asked = stub.requests.count
            try await Self.runOnce(tracker, terms, "#a")
            #expect(stub.requests.count == asked, "nothing is sent during the pause")
            #expect(try await terms.term("#a")?.source("mastodon") == first)
            let pause = try #require(first.retryAt).timeIntervalSinceNow
            #expect(pause > 10 && pause <= 15, "the first pause is about 15 s")
        }
    }

    /// Issue 55: `collect` stopped with Ctrl-C while a request was under way kept "The search could not be completed"
    /// as the source's last error.
    @Test func aRunStoppedMidRequestLeavesNoErrorBehind() async throws {
        try await StubMastodon.run { stub, port in
            let (_, terms, _, _, tracker) = try await Self.mastodonTracker(port: port)
            stub.fail(with: StubFailure(status: 200, body: "[]", delay: .seconds(30)))
            let claimed = try await terms.claimDue(now: .distantFuture, lease: .seconds(60), limit: 10, only: ["#a"])
            let run = Task { for term in claimed { await tracker.collect(term) } }
            let deadline = ContinuousClock.now + .seconds(20)
            while stub.requests.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(!stub.requests.isEmpty, "the request went out")
            run.cancel()
            await run.value
            let state = try #require(try await terms.term("#a")?.source("mastodon"))
            #expect(state.error == nil && state.failures == 0, "\(state)")
        }
    }

    @Test func aRateLimitedSourceGetsNoRequestBeforeItsReset() async throws {
        try await StubMastodon.run { stub, port in
            let (_, terms, _, _, tracker) = try await Self.mastodonTracker(port: port)
            let reset = Date().addingTimeInterval(2)
            stub.fail(with: StubFailure(status: 429, headers: ["X-RateLimit-Reset": reset.ISO8601Format()]))
            try await Self.runOnce(tracker, terms, "#a")
            let limited = try #require(try await terms.term("#a")?.source("mastodon"))
            #expect(
                limited.error?.contains("429") == true
                    && limited.retryAt.map { $0 >= reset.addingTimeInterval(-1) } == true)

            stub.fail(with: nil)
            stub.serve((1...3).map { StubMastodon.Status(id: $0, tags: ["a"]) })
            // Runs as the loop makes them, until the source answers again (bounded: the reset is 2 s away).
            let deadline = ContinuousClock.now + .seconds(20)
            while try await terms.term("#a")?.posts == 0, ContinuousClock.now < deadline {
                try await Self.runOnce(tracker, terms, "#a")
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await terms.term("#a")?.posts == 3, "collected once the reset has passed")
            // The reset is a wall-clock second: an answer within that second may be a little before it.
            #expect(
                stub.requestTimes.dropFirst().allSatisfy { $0 >= reset.addingTimeInterval(-1) }, "none before the reset"
            )
        }
    }

    @Test func theLastFifthOfAWindowIsLeftForPeoplesSearches() async throws {
        try await StubMastodon.run { stub, port in
            let (database, terms, mastodon, sources, tracker) = try await Self.mastodonTracker(port: port)
            stub.serve((1...5).map { StubMastodon.Status(id: $0, tags: ["a"]) })
            stub.limitRate(StubMastodon.RateLimit(limit: 300, remaining: 61, reset: Date().addingTimeInterval(300)))
            try await Self.runOnce(tracker, terms, "#a")
            #expect(
                (mastodon.budget?.window?.remaining ?? 300) <= 60, "at most 60 of 300 left: the fifth kept for searches"
            )
            let asked = stub.requests.count
            stub.serve((1...9).map { StubMastodon.Status(id: $0, tags: ["a"]) })
            try await Self.runOnce(tracker, terms, "#a")
            #expect(stub.requests.count == asked, "the tracker sends nothing into the last fifth")
            #expect(
                try await terms.term("#a")?.source("mastodon").error?.contains("waiting for its rate limit") == true)
            _ = try await SearchSessions(database: database).fetch("#a", from: sources, at: .newest)
            #expect(stub.requests.count > asked, "a person's search still goes")
        }
    }

    @Test func aTermNoSourceAcceptsSaysWhyItCollectsNothing() async throws {
        try await StubMastodon.run { stub, port in
            let (_, terms, _, _, tracker) = try await Self.mastodonTracker(
                port: port, tracking: "climate words", TrackingPlan(every: 10, sources: ["mastodon", "bluesky"]))
            try await Self.runOnce(tracker, terms, "climate words")
            let term = try #require(try await terms.term("climate words"))
            #expect(term.posts == 0 && stub.requests.isEmpty, "nothing to ask: Mastodon searches words with a token")
            #expect(term.source("mastodon").error?.contains("token") == true)
            #expect(term.source("bluesky").error?.contains("not a source this server offers") == true)
        }
    }

    @Test func aTermUntrackedDuringARunEndsWithThePageItWasCounting() async throws {
        let database = try AppDatabase.inMemory()
        let terms = TrackedTerms(database: database)
        try await terms.track("#a", TrackingPlan(every: 10))
        let source = UntrackingSource(terms: terms, posts: Self.posts(1...3))
        let tracker = Tracker(terms: terms, sources: SourceSet(only: source), logger: Self.logger)
        try await Self.runOnce(tracker, terms, "#a")
        #expect(try await terms.all().isEmpty)
        #expect(try await Popularity(database: database).table(for: "#a").rows(.hashtags).first?.count == 3)
        #expect(try await terms.claimDue(now: .distantFuture, lease: .seconds(1), limit: 10).isEmpty)
    }

    @Test func termsDueTogetherAreSpreadOverTheInterval() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let dues = (0..<100).map { Schedule.next(after: now, every: 10, key: "term \($0)") }
        #expect(dues.allSatisfy { $0 > now && $0 <= now.addingTimeInterval(10) })
        #expect(Set(dues.map { Int($0.timeIntervalSince(now)) }).count >= 8, "spread over the ten seconds")
        #expect(Schedule.next(after: dues[0], every: 10, key: "term 0") == dues[0].addingTimeInterval(10))
    }

    @Test func theLoopCollectsADueTermOnItsOwn() async throws {
        let database = try AppDatabase.inMemory()
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add(Self.posts(1...5))
        let terms = TrackedTerms(database: database)
        try await terms.track("#a", TrackingPlan(every: 10))
        var options = Tracker.Options()
        options.tick = .milliseconds(50)
        let tracker = Tracker(
            terms: terms, sources: SourceSet(only: CorpusSource(corpus: corpus)), options: options, logger: Self.logger)
        let running = Task { try await tracker.run() }
        let deadline = ContinuousClock.now + .seconds(20)
        while try await terms.term("#a")?.posts != 5, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        running.cancel()
        #expect(try await terms.term("#a")?.posts == 5)
    }
}

/// A source that stops the term's tracking while it answers, as a person might untrack a term mid-fetch.
private struct UntrackingSource: PostSource {
    let terms: TrackedTerms
    let posts: [Post]

    func search(_ request: SearchRequest) async throws -> SearchPage {
        _ = try await terms.untrack(request.query)
        return SearchPage(posts: posts, newer: request.newer(after: posts), older: nil)
    }
}
