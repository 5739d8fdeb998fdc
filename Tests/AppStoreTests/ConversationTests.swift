import AppStore
import Foundation
import Logging
import PostgresNIO
import Posts
import TestSupport
import Testing

/// Interactions: for every post counted under a term, who it replies to, quotes or reposts, counted once per (term,
/// post) on both stores, read as directed networks.
struct ConversationTests {
    private static let now = BothStoresTests.now

    /// Some posts' interactions counted independently: each post once; a repost is its reposter's act on the author;
    /// else a reply (to whom it names), else a quote (of whom the quoted post names); never toward oneself; handles
    /// folded to lower case.
    static func recount(_ posts: [Post], _ kind: NetworkKind) -> [String: Int] {
        var seen = Set<PostKey>()
        var weights: [String: Int] = [:]
        for post in posts where seen.insert(post.key).inserted {
            let (acting, actedOn): (String, String?)
            let made: NetworkKind
            if let reposter = post.repostedBy {
                (made, acting, actedOn) = (.reposts, reposter.handle, post.author.handle)
            } else if post.inReplyToID != nil {
                (made, acting, actedOn) = (.replies, post.author.handle, post.inReplyToUser)
            } else if post.quotedID != nil {
                (made, acting, actedOn) = (.quotes, post.author.handle, post.quoted?.author.handle)
            } else {
                continue
            }
            guard made == kind, let actedOn, actedOn.lowercased() != acting.lowercased() else { continue }
            weights["@\(acting.lowercased()) @\(actedOn.lowercased())", default: 0] += 1
        }
        return weights
    }

    /// The network's edges as "source target" → weight, lower-cased.
    static func edges(_ network: MentionNetwork?) -> [String: Int] {
        guard let network else { return [:] }
        var edges: [String: Int] = [:]
        for edge in network.edges {
            edges[
                network.nodes[edge.source].mention.lowercased() + " " + network.nodes[edge.target].mention.lowercased()
            ] = edge.weight
        }
        return edges
    }

    @Test(arguments: TestStore.available) func interactionWeightsEqualARecountOfThePostsCountedExactlyOnce(
        store: TestStore
    ) async throws {
        let posts = BothStoresTests.posts()
        let t = try await store.fixture()
        let page = { (ids: ClosedRange<Int>) in Array(posts[ids].sorted { $0.created > $1.created }) }
        // Overlapping pages, a page fetched again, and one another term stored first.
        t.source.enqueue(page(0...79), page(50...129), page(0...79), page(100...179))
        for term in ["T", "T", "T", "U"] { _ = try await t.sessions.fetch(term, at: .newest, count: 100) }
        for kind in NetworkKind.allCases where kind.isDirected {
            let options = NetworkOptions(kind: kind, top: 500)
            let network = try await t.popularity.network(for: "t", options, now: Self.now)
            #expect(Self.edges(network) == Self.recount(page(0...129), kind), "\(kind)")
            #expect(!Self.edges(network).isEmpty)
            #expect(
                Self.edges(try await t.popularity.network(for: "u", options, now: Self.now))
                    == Self.recount(page(100...179), kind))
            // Nodes sized by what they received.
            let received = Dictionary(grouping: Self.recount(page(0...129), kind)) { $0.key.split(separator: " ")[1] }
                .mapValues { $0.map(\.value).reduce(0, +) }
            for node in network?.nodes ?? [] {
                #expect(node.count == received[Substring(node.mention.lowercased())] ?? 0, "\(node.mention)")
            }
        }
    }

    @Test(arguments: TestStore.available) func aWindowCountsTheInteractionsOfItsPostsOnly(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let reply = { (id: Int, hoursAgo: Double, from: String, to: String) in
            Post(
                id: String(id), created: Self.now.addingTimeInterval(-hoursAgo * 3600),
                author: TestPosts.author(from), text: "@\(to) #t", mentions: TestPosts.mentions(in: "@\(to) #t"),
                inReplyToID: "1", inReplyToUser: to)
        }
        t.source.enqueue([
            reply(4, 1, "ann", "bob"), reply(3, 2, "cat", "bob"), reply(2, 30, "ann", "bob"),
            reply(5, 200, "dan", "ann"),
        ])
        _ = try await t.sessions.fetch("#t", at: .newest, count: 10)
        let day = try await t.popularity.network(
            for: "#t", NetworkOptions(kind: .replies, window: .day), now: Self.now)
        #expect(Self.edges(day) == ["@ann @bob": 1, "@cat @bob": 1])
        #expect(day?.nodes.first?.mention == "@bob" && day?.nodes.first?.count == 2, "the most active first")
        let all = try await t.popularity.network(for: "#t", NetworkOptions(kind: .replies), now: Self.now)
        #expect(Self.edges(all) == ["@ann @bob": 2, "@cat @bob": 1, "@dan @ann": 1])
        let two = try await t.popularity.network(
            for: "#t", NetworkOptions(kind: .replies, top: 2, minimumWeight: 2), now: Self.now)
        #expect(Set(two?.nodes.map(\.mention) ?? []) == ["@bob", "@ann"] && Self.edges(two) == ["@ann @bob": 2])
        #expect(Self.edges(try await t.popularity.network(for: "#t", NetworkOptions(kind: .quotes))).isEmpty)
    }

    @Test(arguments: TestStore.available) func withheldPostsAndUnknownPeopleActOnNoOne(store: TestStore) async throws {
        let t = try await store.fixture()
        let base = { (id: Int, to: String?) in
            Post(
                id: String(id), created: Self.now.addingTimeInterval(-Double(id)), author: TestPosts.author("ann"),
                text: "#t", mentions: TestPosts.mentions(in: "#t"), inReplyToID: "1", inReplyToUser: to)
        }
        let withheld = Post(
            id: "9", created: Self.now, author: TestPosts.author("zed"), text: "#t",
            mentions: TestPosts.mentions(in: "#t"),
            inReplyToID: "1", inReplyToUser: "bob", notIndexable: true)
        // Kept whole while the consent rule is off, by default: a not-indexable post is withheld only when on.
        t.source.enqueue([
            withheld, base(2, "ann"), base(3, nil), base(4, "did:plc:abc"), base(5, "unknown"), base(6, "Bob"),
        ])
        _ = try await t.sessions.fetch("#t", at: .newest, count: 10)
        let network = try await t.popularity.network(for: "#t", NetworkOptions(kind: .replies), now: Self.now)
        let edges = Self.edges(network)
        #expect(edges["@ann @bob"] == 1 && edges["@ann @ann"] == nil, "no one replies to themselves in a network")
        #expect(!edges.keys.contains { $0.contains("did:") || $0.contains("unknown") })
    }

    @Test(arguments: TestStore.available) func theMostRepliedToAndQuotedPostsAndWhoStartsConversations(
        store: TestStore
    ) async throws {
        let t = try await store.fixture()
        let post = { (id: Int, by: String, parent: Int?, to: String?, quoting: Int?) in
            Post(
                id: String(id), created: Self.now.addingTimeInterval(-Double(id)), author: TestPosts.author(by),
                text: "#t", mentions: TestPosts.mentions(in: "#t"),
                quoted: quoting.map { TestPosts.post($0, by: "ann", "quoted") }, inReplyToID: parent.map(String.init),
                inReplyToUser: to)
        }
        let page = [
            post(10, "bob", 1, "ann", nil), post(11, "cat", 1, "ann", nil), post(12, "dan", 2, "ann", nil),
            post(13, "bob", 3, "Cat", nil), post(14, "bob", nil, nil, 1), post(16, "ann", nil, nil, 2),
            post(15, "eve", 4, nil, nil),
        ]
        t.source.enqueue(page, page)
        _ = try await t.sessions.fetch("#t", at: .newest, count: 10)
        _ = try await t.sessions.fetch("#t", at: .newest, count: 10)
        let read = try #require(try await t.popularity.conversations(for: "#t"))
        #expect(read.mostRepliedTo.map(\.post.id) == ["1", "2", "3", "4"])
        #expect(read.mostRepliedTo.map(\.count) == [2, 1, 1, 1])
        // A person is shown as first met (cat, as an author, before bob's reply named @Cat).
        #expect(read.mostRepliedTo.map(\.author) == ["@ann", "@ann", "@cat", nil])
        #expect(
            read.mostQuoted.map(\.post.id) == ["1"] && read.mostQuoted.first?.author == "@ann",
            "ann quoting herself: no")
        #expect(read.starters.map { "\($0.user) \($0.posts) \($0.replies)" } == ["@ann 2 3", "@cat 1 1"])
        _ = try await t.database.removePosts([page[0].key, page[1].key])
        let after = try #require(try await t.popularity.conversations(for: "#t"))
        #expect(after.mostRepliedTo.map(\.post.id) == ["2", "3", "4"], "post 1 lost both its replies")
        #expect(try await t.popularity.conversations(for: "never") == nil)
    }

    @Test(.enabled(if: TestStore.postgresURL != nil, "PostgreSQL for the tests"))
    func postgresCountsThePostsCountedBeforeInteractionsWhenItUpgrades() async throws {
        let url = try await TestPostgres.newDatabase()
        let t = StoreFixture(database: try await TestStore.postgres(at: url))
        try await BothStoresTests.run(BothStoresTests.searches(of: BothStoresTests.posts()), t)
        let before = try await BothStoresTests.readings(of: t)
        try await Self.psql(
            url,
            """
            DROP TABLE interaction, interaction_hour, interaction_user, interaction_post;
            DELETE FROM smashtag_migration WHERE name = 'v10: conversations'
            """)
        let upgraded = StoreFixture(database: try await TestStore.postgres(at: url))
        #expect(try await BothStoresTests.readings(of: upgraded) == before)
    }

    private static func psql(_ url: String, _ sql: String) async throws {
        let components = URLComponents(string: url)!
        var configuration = PostgresConnection.Configuration(
            host: components.host ?? "127.0.0.1", port: components.port ?? 5432,
            username: components.user ?? "postgres",
            password: nil, database: String(components.path.dropFirst()), tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: Logger(label: "test"))
        for statement in sql.split(separator: ";") {
            try await connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: Logger(label: "test"))
        }
        try await connection.close()
    }
}
