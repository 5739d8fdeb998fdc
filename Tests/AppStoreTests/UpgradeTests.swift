import AppStore
import Foundation
import GRDB
import Posts
import TestSupport
import Testing

/// A data directory made by the release before posts had networks (schema "v2", tweets keyed by their X id) opens
/// with nothing lost: every tweet becomes a `twitter` post, counts and Recents stay, sessions go on where they were,
/// and a tweet fetched again is not counted twice.
struct UpgradeTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "smashtag-upgrade-\(UUID().uuidString).sqlite"
    ).path

    /// The app database exactly as that release left it after searching `#swift` once: two tweets, both naming
    /// `#swift` and `@nasa`, and a session whose follow-on requests are single requests.
    private func makeReleaseDatabase() throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2: recents and popularity');
                    CREATE TABLE recent (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, term TEXT NOT NULL,
                        searched INTEGER NOT NULL, newer TEXT, older TEXT);
                    CREATE INDEX recent_by_searched ON recent(searched);
                    CREATE TABLE countedTweet (termID INTEGER NOT NULL REFERENCES recent(id) ON DELETE CASCADE,
                        tweetID INTEGER NOT NULL, PRIMARY KEY (termID, tweetID)) WITHOUT ROWID;
                    CREATE INDEX countedTweet_by_tweet ON countedTweet(tweetID);
                    CREATE TABLE mention (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, key TEXT NOT NULL UNIQUE, \
                    shown TEXT NOT NULL);
                    CREATE TABLE mentionCount (termID INTEGER NOT NULL REFERENCES recent(id) ON DELETE CASCADE,
                        mentionID INTEGER NOT NULL REFERENCES mention(id), count INTEGER NOT NULL,
                        PRIMARY KEY (termID, mentionID)) WITHOUT ROWID;
                    CREATE INDEX mentionCount_by_count ON mentionCount(termID, count);
                    CREATE TABLE storedTweet (id INTEGER PRIMARY KEY, tweet TEXT NOT NULL);
                    INSERT INTO recent VALUES (1, '#swift', '#Swift', 1,
                        '{"query":"#Swift","count":20,"position":{"newer":{"than":"1900000000000000002"}}}',
                        '{"query":"#Swift","count":20,"position":{"older":{"than":"1900000000000000001"}}}');
                    INSERT INTO mention VALUES (1, 0, '#swift', '#Swift'), (2, 1, '@nasa', '@NASA');
                    INSERT INTO mentionCount VALUES (1, 1, 2), (1, 2, 2);
                    INSERT INTO countedTweet VALUES (1, 1900000000000000001), (1, 1900000000000000002);
                    """)
            for (id, created) in [("1900000000000000001", 800_000_000.0), ("1900000000000000002", 800_000_060.0)] {
                try db.execute(
                    sql: "INSERT INTO storedTweet VALUES (?, ?)",
                    arguments: [
                        Int64(id),
                        """
                        {"id":"\(id)","created":\(created),"user":{"screenName":"nasa","name":"NASA"},"text":"#Swift \
                        @NASA",\
                        "mentions":[{"kind":"hashtag","keyword":"#Swift","start":0,"end":6},{"kind":"user",\
                        "keyword":"@NASA","start":7,"end":12}],\
                        "media":[],"retweetedBy":{"screenName":"jack","name":"Jack"}}
                        """,
                    ])
            }
        }
    }

    @Test func everyTweetBecomesATwitterPostAndTheCountsStay() async throws {
        try makeReleaseDatabase()
        let database = try await AppDatabase.open(at: path)
        let post = try #require(try await database.storedPost(PostKey(network: .twitter, id: "1900000000000000001")))
        #expect(post.network == .twitter && post.text == "#Swift @NASA" && post.repostedBy?.handle == "jack")
        #expect(post.url == "https://x.com/i/status/1900000000000000001")
        #expect(try await database.storedPost(PostKey(network: .mastodon, id: "1900000000000000001")) == nil)
        #expect(try await Recents(database: database).terms() == ["#Swift"])
        let table = try await Popularity(database: database).table(for: "#swift")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#Swift", count: 2)])
        #expect(table.rows(.users) == [PopularMention(mention: "@NASA", count: 2)])
        // The trends are made from the stored tweets: both in one hour, adding up to the counts.
        let trend = try await Trends(database: database).series(term: "#swift", mention: "@nasa", bucket: .hour)
        #expect(trend.points == [TrendPoint(start: Date(timeIntervalSince1970: 978_307_200 + 799_999_200), count: 2)])
        let times = (
            Date(timeIntervalSinceReferenceDate: 800_000_060), Date(timeIntervalSinceReferenceDate: 800_000_000)
        )
        let page = try await database.storedPosts(term: "#swift", newest: times.0, oldest: times.1)
        #expect(page.map(\.id) == ["1900000000000000002", "1900000000000000001"])
    }

    @Test func theCoMentionsAreMadeFromTheStoredTweets() async throws {
        try makeReleaseDatabase()
        let database = try await AppDatabase.open(at: path)
        let network = try #require(try await Popularity(database: database).network(for: "#swift"))
        #expect(network.nodes.map(\.mention) == ["#Swift", "@NASA"])
        #expect(network.edges == [MentionNetwork.Edge(source: 0, target: 1, weight: 2)])
        let table = try await Popularity(database: database).table(for: "#swift")
        #expect(table.rows(.users).first.map(table.partners) == ["#Swift"])
    }

    @Test func theRepostsAreCountedFromTheStoredTweets() async throws {
        try makeReleaseDatabase()
        let database = try await AppDatabase.open(at: path)
        let network = try #require(
            try await Popularity(database: database).network(for: "#swift", NetworkOptions(kind: .reposts)))
        // A person is their `mention` row: @NASA as the tweets named them first.
        #expect(Set(network.nodes.map(\.mention)) == ["@jack", "@NASA"])
        let edge = try #require(network.edges.first)
        #expect(network.nodes[edge.source].mention == "@jack" && network.nodes[edge.target].mention == "@NASA")
        #expect(edge.weight == 2 && network.edges.count == 1)
        #expect(network.nodes.first { $0.mention == "@NASA" }?.count == 2, "sized by what they received")
    }

    @Test func sessionsGoOnAndTweetsFetchedAgainAreNotCountedTwice() async throws {
        try makeReleaseDatabase()
        let database = try await AppDatabase.open(at: path)
        let source = ScriptedSource()
        let sessions = OneSourceSessions(database: database, source: source)
        #expect(try await sessions.newerPosition(for: "#swift") == .newer(than: "1900000000000000002"))
        #expect(try await sessions.olderPosition(for: "#swift") == .older(than: "1900000000000000001", token: nil))
        var again = try #require(try await database.storedPost(PostKey(network: .twitter, id: "1900000000000000002")))
        let new = Post(
            id: "1900000000000000003", created: again.created.addingTimeInterval(60), author: again.author,
            text: again.text, mentions: again.mentions)
        source.enqueue([new, again])
        _ = try await sessions.fetch("#Swift", at: .newest)
        let table = try await Popularity(database: database).table(for: "#swift")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#Swift", count: 3)])
        again = try #require(try await database.storedPost(PostKey(network: .twitter, id: "1900000000000000003")))
        #expect(again.id == "1900000000000000003")
    }

    /// Counts written by a release before a term's counts could wait (`PendingTallies`) go with their term: it is
    /// taken as having counts, whatever it holds.
    @Test func anEarlierTermGoesWithItsCounts() async throws {
        try makeReleaseDatabase()
        let database = try await AppDatabase.open(at: path)
        #expect(try await Recents(database: database).delete("#swift"))
        let left = try await database.sqliteWriter!.read { db in
            try Int.fetchOne(
                db, sql: "SELECT (SELECT count(*) FROM mentionCount) + (SELECT count(*) FROM mentionTrend)")
        }
        #expect(left == 0)
    }

    /// Earlier releases tracked terms of any length (five of 1.9 MB made Recents 78 MB of HTML, and the command line
    /// could not untrack them): opened, the store keeps only terms a term may be, each longer one gone with its
    /// counts and tracking, as a term deleted from Recents goes.
    @Test func termsLongerThanATermMayBeGoWhenTheStoreOpens() async throws {
        let long = "#" + String(repeating: "a", count: SearchTermKey.maximumLength)
        do {
            let database = try await AppDatabase.open(at: path)
            let source = ScriptedSource()
            source.enqueue([TestPosts.post(1, "#x @y")], [TestPosts.post(2, "#x @z")])
            let sessions = OneSourceSessions(database: database, source: source)
            _ = try await sessions.fetch("#kept", at: .newest)
            _ = try await sessions.fetch("#long", at: .newest)
            _ = try await TrackedTerms(database: database).track("#long", TrackingPlan(every: 300))
            // As an earlier release wrote it: the term lengthened, and the version that removes such terms not run.
            try await database.sqliteWriter!.write { db in
                try db.execute(sql: "UPDATE recent SET term = ?, key = ? WHERE key = '#long'", arguments: [long, long])
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v9%'")
            }
        }
        let database = try await AppDatabase.open(at: path)
        #expect(try await Recents(database: database).terms() == ["#kept"])
        #expect(try await TrackedTerms(database: database).all().isEmpty)
        let rows = try await database.sqliteWriter!.read { db in
            try ["countedPost", "mentionCount", "mentionTrend", "mentionPair", "tracked", "trackedSource"].map {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0) WHERE termID NOT IN (SELECT id FROM recent)")!
            }
        }
        #expect(rows == [0, 0, 0, 0, 0, 0])
        #expect(try await database.storedPostIDs() == ["1"], "the long term's post goes with it")
    }
}
