import Foundation
import GRDB
import Posts
import TestSupport
import Testing

@testable import Corpus

/// A post's thread from the replies the corpus stores, on both corpora: the chain above, the tree below, what is
/// missing or loops, the limits, and replies found by `filter:replies`.
struct CorpusThreadTests {
    private static let start = Date(timeIntervalSince1970: 1_780_000_000)

    private func post(
        _ id: Int, replyingTo parent: Int? = nil, network: Network = .twitter, seconds: Int? = nil
    ) -> Post {
        Post(
            network: network, id: String(1_900_000_000_000_000_000 + id),
            created: Self.start.addingTimeInterval(Double(seconds ?? id)),
            author: TestPosts.author(network == .twitter ? "alice" : "bob@example.social"), text: "post \(id)",
            inReplyToID: parent.map { String(1_900_000_000_000_000_000 + $0) },
            inReplyToUser: parent.map { _ in "alice" })
    }

    private func ids(_ items: [ThreadItem]) -> [String] {
        items.map { $0.id.count > 4 ? String($0.id.suffix(4)) : $0.id }
    }

    /// `after` comes from the request: the largest key there is has no reply after it, and stops nothing.
    @Test(arguments: TestCorpus.available) func repliesAfterTheLargestKeyAreNone(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add([post(1), post(2, replyingTo: 1)])
        for after in [String(Int64.max), String(Int64.min), "-1"] {
            let replies = try await corpus.replies(to: [post(1).key], after: after, limit: 10)
            #expect(replies[post(1).key]?.count == (after == String(Int64.max) ? nil : 1), "after \(after)")
        }
    }

    @Test(arguments: TestCorpus.available) func aStoredConversationIsItsThread(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add([
            post(1), post(2, replyingTo: 1), post(3, replyingTo: 2), post(4, replyingTo: 2, seconds: 1),
            post(5, replyingTo: 3), post(6, replyingTo: 99),
            // Another network's post with the same digits answers its own network's post, not X's.
            post(7, replyingTo: 2, network: .mastodon),
        ])
        let source = CorpusSource(corpus: corpus)
        let key = post(2).key
        let thread = try #require(try await source.thread(of: key, after: nil, limits: ThreadLimits()))
        #expect(ids(thread.ancestors) == ["0001"])
        #expect(thread.replies.map { ids([$0.item]) } == [["0004"], ["0003"]], "oldest first by time")
        #expect(thread.replies[1].replies.map(\.item.id) == [post(5).id])
        #expect(thread.source == "the corpus")
        #expect(thread.replies[1].replies.first?.item.post?.inReplyToUser == "alice", "whom it answers, kept")

        let orphan = try #require(try await source.thread(of: post(6).key, after: nil, limits: ThreadLimits()))
        guard case .unavailable(_, .notFound)? = orphan.ancestors.first else {
            Issue.record("a parent the corpus does not hold is a row saying so")
            return
        }
        #expect(try await source.thread(of: post(42).key, after: nil, limits: ThreadLimits()) == nil)
        #expect(try await source.thread(of: post(1, network: .mastodon).key, after: nil, limits: ThreadLimits()) == nil)

        await #expect(throws: CorpusQueryError.conversation) {
            try await CorpusSource(corpus: corpus).search(SearchRequest(query: "#a conversation:\(post(1).id)"))
        }
        let replies = try await corpus.search(.term(.filter(.replies)), .newest, count: 20).posts
        #expect(Set(replies.map(\.id)) == Set([2, 3, 4, 5, 6, 7].map { post($0).id }))
    }

    @Test(arguments: TestCorpus.available) func cyclesInStoredDataEndAsARow(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add([post(1, replyingTo: 3), post(2, replyingTo: 1), post(3, replyingTo: 2)])
        let thread = try #require(
            try await CorpusSource(corpus: corpus).thread(of: post(3).key, after: nil, limits: ThreadLimits()))
        #expect(ids(thread.ancestors) == ["0003", "0001", "0002"])
        #expect(thread.replies.isEmpty)
    }

    @Test(arguments: TestCorpus.available) func tenThousandRepliesArePagedAndAChainIsBounded(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.add([post(1)] + (2...10_001).map { post($0, replyingTo: 1) })
        let source = CorpusSource(corpus: corpus)
        let first = try #require(try await source.thread(of: post(1).key, after: nil, limits: ThreadLimits()))
        #expect(first.replies.count == 50 && first.moreReplies == 9_950)
        let after = first.replies.last!.item.id
        let second = try #require(try await source.thread(of: post(1).key, after: after, limits: ThreadLimits()))
        #expect(second.replies.first?.item.id == post(52).id && second.moreReplies == 9_900)

        _ = try await corpus.add((20_001...21_500).map { post($0, replyingTo: $0 == 20_001 ? nil : $0 - 1) })
        let deep = try #require(try await source.thread(of: post(21_500).key, after: nil, limits: ThreadLimits()))
        #expect(deep.ancestors.count == 1_000 && deep.ancestors.last?.id == post(21_499).id)
        #expect(deep.notes == ["The chain of posts above goes on: the 1,000 nearest are shown."])
        let top = try #require(try await source.thread(of: post(20_001).key, after: nil, limits: ThreadLimits()))
        #expect(top.shownPosts.count == 5, "four levels of replies below the post")
        #expect(top.replies.first?.replies.first?.replies.first?.replies.first?.moreReplies == 1)
    }

    @Test func aCorpusWrittenBeforeRepliesWereIndexedFindsThemAfterItsUpgrade() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "corpus-v11-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = try DatabaseQueue(path: path)
        try SQLiteCorpusSchema.migrator.migrate(old, upTo: "v11: rechecks")
        try old.close()
        // Written by the v11 writer's terms: without the replies' own.
        do {
            let corpus = try await SQLiteCorpus.open(at: path)
            _ = try await corpus.add([post(1), post(2, replyingTo: 1), post(3, replyingTo: 2)])
        }
        let writer = try DatabaseQueue(path: path)
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v12: replies'")
            let keys = try Int64.fetchAll(db, sql: "SELECT id FROM post WHERE inReplyToID IS NOT NULL")
            let (now, before) = (try SearchIndex.entries(keys, db), try SearchIndex.entries(keys, db, replies: false))
            for key in keys {
                try db.execute(sql: SearchIndex.delete, arguments: [key, SearchIndex.text(of: now[key]!)])
                try db.execute(sql: SearchIndex.insert, arguments: [key, SearchIndex.text(of: before[key]!)])
            }
        }
        try writer.close()
        let corpus = try await SQLiteCorpus.open(at: path)
        let thread = try #require(
            try await CorpusSource(corpus: corpus).thread(of: post(1).key, after: nil, limits: ThreadLimits()))
        #expect(thread.shownPosts.map(\.id) == [1, 2, 3].map { post($0).id })
        _ = try await corpus.delete(ids: [post(3).id])
        #expect(try await corpus.search(.term(.filter(.replies)), .newest, count: 5).posts.map(\.id) == [post(2).id])
        #expect(try await corpus.search(.term(.word("post")), .newest, count: 5).posts.count == 2, "index intact")
    }
}
