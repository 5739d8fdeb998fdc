import Foundation
import Posts
import TestSupport
import Testing

@testable import Corpus

/// The corpus holds Bluesky's posts beside X's (the live index of issue 16): each keeps its own id and what X
/// derives but others must store, and both networks' posts are searched and paged as one, by time.
struct CorpusNetworksTests {
    /// A Bluesky post `seconds` after the test tweets' start (tweet N is at N seconds).
    static func skeet(_ rkey: String, seconds: Double, _ text: String) -> Post {
        Post(
            network: .bluesky, id: "at://did:plc:abc/app.bsky.feed.post/\(rkey)",
            created: Date(timeIntervalSince1970: 1_700_000_000 + seconds),
            author: Author(handle: "did:plc:abc", name: "did:plc:abc"),
            text: text, mentions: TestPosts.mentions(in: text),
            media: [
                MediaItem(url: "https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:abc/bafk@jpeg", aspectRatio: 0)
            ],
            quotedID: "at://did:plc:q/app.bsky.feed.post/1", contentWarning: "Graphic media", isSensitive: true,
            card: LinkCard(url: "https://swift.org", title: "Swift"),
            url: "https://bsky.app/profile/did:plc:abc/post/\(rkey)")
    }

    @Test(arguments: TestCorpus.available) func aBlueskyPostComesBackWholeWithItsOwnId(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let post = Self.skeet("3la", seconds: 1.5, "hello #swift")
        #expect(try await corpus.add([post]).inserted == 1)
        #expect(try await corpus.post(id: post.id) == post)
        let again = try await corpus.add([post])
        #expect(again.inserted == 0 && again.duplicates == 1, "the same post twice is stored once")
    }

    @Test(arguments: TestCorpus.available) func aQuotedPostComesBackWhole(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        let quoted = Self.skeet("3lq", seconds: 0.5, "the quoted one #swift 🌍")
        let quoting = Post(
            network: .bluesky, id: "at://did:plc:abc/app.bsky.feed.post/3lr",
            created: Date(timeIntervalSince1970: 1_700_000_002),
            author: Author(handle: "abc.bsky.social", name: "A"), text: "look", quoted: quoted,
            url: "https://bsky.app/profile/abc.bsky.social/post/3lr", language: "en")
        #expect(try await corpus.add([quoting]).inserted == 1)
        #expect(try await corpus.post(id: quoting.id) == quoting)
    }

    /// A tweet `seconds` after the start whose id is a real Snowflake for its time, as X's are.
    static func post(seconds: Int, _ text: String) -> Post {
        let id = (Int64(1_700_000_000_000 + seconds * 1000) - OrderKey.epoch) << 22
        let base = TestPosts.post(seconds, text)
        return Post(
            id: String(id), created: base.created, author: base.author, text: base.text, mentions: base.mentions)
    }

    @Test(arguments: TestCorpus.available) func bothNetworksAreSearchedAndPagedAsOneByTime(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let posts = (1...6).map { Self.post(seconds: $0, "tweet #swift") }
        let skeets = [Self.skeet("3la", seconds: 2.5, "skeet #swift"), Self.skeet("3lb", seconds: 4.5, "skeet #swift")]
        _ = try await corpus.add(posts + skeets)
        let seen = try await CorpusSource(corpus: corpus).idsOfEveryPage("#swift", count: 3)
        let t = posts.map(\.id)
        #expect(seen == [t[5], t[4], skeets[1].id, t[3], t[2], skeets[0].id, t[1], t[0]])
        let words = try await corpus.search(SearchQuery(parsing: "skeet"), .newest, count: 10).posts.map(\.network)
        #expect(words == [.bluesky, .bluesky])
        let newer = try await corpus.search(SearchQuery(parsing: "#swift"), .newer(than: skeets[0].id), count: 10).posts
            .map(\.id)
        #expect(newer == [t[5], t[4], skeets[1].id, t[3], t[2]], "a page goes on from a Bluesky post too")
    }

    @Test(arguments: TestCorpus.available) func postsInTheSameMillisecondKeepTheirOrderKeysApart(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let posts = (0..<50).map { Self.skeet("k\($0)", seconds: 7, "same moment") }
        #expect(try await corpus.add(posts).inserted == 50)
        #expect(try await corpus.search(SearchQuery(parsing: "moment"), .newest, count: 100).posts.count == 50)
    }

    @Test(arguments: TestCorpus.available) func aDeletedPostLeavesEveryIndex(in store: TestCorpus) async throws {
        let corpus = try await store.open()
        let gone = Self.skeet("3la", seconds: 1, "farewell #swift @bob https://t.co/x")
        let kept = Self.skeet("3lb", seconds: 2, "farewell #swift @bob")
        let post = Self.post(seconds: 3, "farewell #swift")
        _ = try await corpus.add([gone, kept, post])
        #expect(try await corpus.delete(ids: [gone.id, post.id, "at://did:plc:abc/app.bsky.feed.post/never"]) == 2)
        for query in ["farewell", "#swift", "@bob", "filter:links", "filter:media", "example.com"] {
            let found = try await corpus.search(SearchQuery(parsing: query), .newest, count: 10).posts.map(\.id)
            // Only the deleted post linked to example.com; the kept one has an image, so it is still filter:links.
            #expect(found == (query == "example.com" ? [] : [kept.id]), "\(query)")
        }
        #expect(try await corpus.post(id: gone.id) == nil)
        #expect(try await corpus.post(id: kept.id) == kept)
        #expect(try await corpus.delete(ids: [gone.id]) == 0, "a post deleted twice is deleted once")
        #expect(try await corpus.add([gone]).inserted == 1, "and may come back (a replayed create)")
    }

    @Test(arguments: TestCorpus.available) func theNewestNameAndPictureWinOnEveryPostOfTheirAuthor(
        in store: TestCorpus
    )
        async throws
    {
        let corpus = try await store.open()
        let first = TestPosts.post(1, by: "alice", "before the rename")
        _ = try await corpus.add([first])
        let renamed = Author(handle: "Alice", name: "Alice Liddell", profileImageURL: "https://example.com/a.png")
        let second = Post(id: "2", created: first.created.addingTimeInterval(1), author: renamed, text: "after")
        _ = try await corpus.add([second])
        let nameless = Post(
            id: "3", created: first.created.addingTimeInterval(2),
            author: Author(handle: "alice", name: "Alice Again"), text: "no picture this time")
        _ = try await corpus.add([nameless])
        for id in ["1", "2", "3"] {
            let author = try #require(try await corpus.post(id: id)).author
            #expect(author.name == "Alice Again", "the newest name, on post \(id)")
            #expect(author.profileImageURL == "https://example.com/a.png", "a picture is kept when none comes")
        }
    }
}
