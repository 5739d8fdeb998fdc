import Foundation
import GRDB
import Posts
import TestSupport
import Testing

@testable import Corpus

/// A corpus written by an earlier release opens in this one with nothing lost, and what X shows of a post (links'
/// display form, a reply's leading names) is kept.
struct CorpusUpgradeTests {
    static let reply: Post = {
        let text = "@ana @bo see https://t.co/AbCdEf123"
        return Post(
            id: "1700000000000000100", created: Date(timeIntervalSince1970: 1_700_000_000),
            author: TestPosts.author("cy"), text: text,
            mentions: [
                Mention(kind: .user, keyword: "@ana", range: 0..<4), Mention(kind: .user, keyword: "@bo", range: 5..<8),
                Mention(
                    kind: .url, keyword: "https://t.co/AbCdEf123", range: 13..<35, expandedURL: "https://example.com/a",
                    display: "example.com/a"),
            ],
            inReplyToID: "1700000000000000099", displayStart: 9
        )
    }()

    @Test func aRepliesDisplayStartAndItsLinksDisplayFormComeBack() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add([Self.reply])
        #expect(try await corpus.post(id: Self.reply.id) == Self.reply)
    }

    @Test func aCorpusOfTheFirstSchemaOpensWithItsTweetsWhole() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "corpus-v1-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = try DatabaseQueue(path: path)
        try SQLiteCorpusSchema.migrator.migrate(old, upTo: "v1")
        try await old.write { db in
            try db.execute(sql: "INSERT INTO user(id, screenName, name) VALUES (1, 'alice', 'Alice')")
            try db.execute(
                sql: "INSERT INTO tweet(id, created, userID, text) VALUES (42, 1700000000000, 1, 'see https://t.co/x')")
            try db.execute(
                sql:
                    """
                    INSERT INTO mention(tweetID, position, kind, start, end, expandedURL) VALUES (42, 0, 2, 4, 18, \
                    'https://example.com/x')
                    """
            )
        }
        try old.close()
        let corpus = try await SQLiteCorpus.open(at: path)
        let post = try #require(try await corpus.post(id: "42"))
        #expect(post.text == "see https://t.co/x" && post.displayStart == 0 && post.language == nil)
        #expect(
            post.mentions == [
                Mention(kind: .url, keyword: "https://t.co/x", range: 4..<18, expandedURL: "https://example.com/x")
            ])
        _ = try await corpus.add([Self.reply])
        #expect(try await corpus.post(id: Self.reply.id) == Self.reply)
    }

    /// A corpus of the operator index and the index of words alone (`v8`) is indexed again into the one search
    /// index when opened: its posts are found by every operator, phrases included.
    @Test func aCorpusOfSeparateIndexesIsIndexedAgainWhole() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "corpus-v8-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = try DatabaseQueue(path: path)
        try SQLiteCorpusSchema.migrator.migrate(old, upTo: "v8: quoted posts")
        try await old.write { db in
            try db.execute(sql: "INSERT INTO author(id, handle, name) VALUES (1, 'alice', 'Alice'), (2, 'bo', 'Bo')")
            try db.execute(
                sql: """
                    INSERT INTO post(id, created, authorID, reposterID, text) VALUES
                        (42, 1700000000000, 1, NULL, 'Hello wide world #Swift'),
                        (43, 1700000001000, 1, 2, 'world hello')
                    """)
            try db.execute(sql: "INSERT INTO mention(postKey, position, kind, start, end) VALUES (42, 0, 0, 17, 23)")
        }
        try old.close()
        let corpus = try await SQLiteCorpus.open(at: path)
        for (query, expected) in [
            ("#swift", ["42"]), ("hello", ["43", "42"]), ("\"wide world\"", ["42"]), ("\"world hello\"", ["43"]),
            ("from:alice", ["42"]), ("from:bo", ["43"]), ("filter:retweets", ["43"]), ("@alice", ["43"]),
        ] {
            let page = try await corpus.search(try SearchQuery(parsing: query), .newest, count: 10)
            #expect(page.posts.map(\.id) == expected, "\(query)")
        }
    }

    /// A search index that kept each post under its order key (`v13`) is made again under the negated key when the
    /// corpus opens (`v14`): newest first, older and newer pages, phrases, and a post's replies in order find what they
    /// found before.
    @Test func aSearchIndexKeyedByOrderIsMadeAgainNewestFirst() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "corpus-v13-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let posts = (1...30).map { number in
            Post(
                id: String(1_800_000_000_000_000_000 + number),
                created: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)),
                author: TestPosts.author("ana"), text: "hello world \(number)",
                inReplyToID: number.isMultiple(of: 10) ? "1800000000000000001" : nil)
        }
        do { _ = try await SQLiteCorpus.open(at: path).add(posts) }
        let writer = try DatabaseQueue(path: path)
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v14: newest first forwards'")
            let keys = try Int64.fetchAll(db, sql: "SELECT id FROM post")
            let entries = try SearchIndex.entries(keys, db)
            try db.execute(sql: "DROP TABLE searchIndex")
            try db.execute(sql: SearchIndex.create)
            for key in keys {
                try db.execute(
                    sql: "INSERT INTO searchIndex(rowid, tokens) VALUES (?, ?)",
                    arguments: [key, SearchIndex.text(of: entries[key]!)])
            }
        }
        try writer.close()
        let corpus = try await SQLiteCorpus.open(at: path)
        let ids = { (numbers: [Int]) in numbers.map { String(1_800_000_000_000_000_000 + $0) } }
        let hello = try SearchQuery(parsing: "hello")
        #expect(try await corpus.search(hello, .newest, count: 5).posts.map(\.id) == ids([30, 29, 28, 27, 26]))
        let older = try await corpus.search(hello, .older(than: ids([26])[0], token: nil), count: 5)
        #expect(older.posts.map(\.id) == ids([25, 24, 23, 22, 21]) && older.hasMore)
        let newer = try await corpus.search(hello, .newer(than: ids([21])[0]), count: 3)
        #expect(newer.posts.map(\.id) == ids([24, 23, 22]))
        let phrase = try SearchQuery(parsing: "\"hello world\"")
        #expect(try await corpus.search(phrase, .newest, count: 2).posts.map(\.id) == ids([30, 29]))
        let replies = try await corpus.replies(to: [posts[0].key], after: nil, limit: 10)
        #expect(replies[posts[0].key]?.posts.map(\.id) == ids([10, 20, 30]))
        #expect(replies[posts[0].key]?.count == 3)
    }
}
