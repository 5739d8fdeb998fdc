import Bluesky
import Corpus
import Foundation
import Posts
import Testing

@testable import LiveIndex

/// `--tags`, `--langs` and `--keep-days`: which posts a live index keeps, and for how long.
struct LiveIndexOptionsTests {
    private func post(_ number: Int, tags: [String] = [], daysAgo: Double = 0) -> Post {
        var text = "kept post \(number)"
        var mentions: [Mention] = []
        for tag in tags {
            text += " "
            let start = text.unicodeScalars.count
            text += "#" + tag
            mentions.append(Mention(kind: .hashtag, keyword: "#" + tag, range: start..<text.unicodeScalars.count))
        }
        return Post(
            network: .bluesky, id: "at://did:plc:options/app.bsky.feed.post/p\(number)",
            created: Date(timeIntervalSinceNow: -daysAgo * 86_400),
            author: Author(handle: "did:plc:options", name: "did:plc:options"), text: text, mentions: mentions)
    }

    @Test func tagsAndLanguagesKeepOnlyWhatWasAskedFor() {
        let options = LiveIndexOptions(tags: ["#Swift", "vapor"], languages: ["en", "pt-BR"])
        #expect(options.tags == ["swift", "vapor"] && options.languages == ["en", "pt-br"])
        #expect(options.keeps(post(1, tags: ["SWIFT"]), languages: ["en-US"]))
        #expect(options.keeps(post(2, tags: ["vapor"]), languages: ["pt-BR"]))
        #expect(!options.keeps(post(3, tags: ["vapor"]), languages: ["pt"]), "pt-BR asked, pt is wider")
        #expect(!options.keeps(post(4, tags: ["vapor"]), languages: ["english"]), "en is a prefix only up to a hyphen")
        #expect(!options.keeps(post(5, tags: ["rust"]), languages: ["en"]))
        #expect(!options.keeps(post(6, tags: ["swift"]), languages: []), "a post that names no language is not in one")
        #expect(LiveIndexOptions().keeps(post(7), languages: []), "nothing asked: everything kept")
        #expect(LiveIndexOptions(tags: ["swift"]).keeps(post(8, tags: ["swift"]), languages: []))
    }

    @Test func postsNotAskedForArePassedOverButTheCursorMoves() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let ingester = JetstreamIngester(corpus: corpus, options: LiveIndexOptions(tags: ["swift"]))
        let events = [post(1, tags: ["swift"]), post(2, tags: ["rust"])].enumerated().map { index, post in
            IngestEvent.event(.create(post, langs: ["en"], cursor: Int64(index + 1)))
        }
        let progress = try await ingester.ingest(
            AsyncThrowingStream { continuation in
                for event in events { continuation.yield(event) }
                continuation.finish()
            })
        #expect(progress.posts == 1 && progress.passedOver == 1 && progress.cursor == 2)
        #expect(try await corpus.postCount() == 1)
    }

    @Test func keepDaysPrunesOlderPostsOfTheNetworkInChunks() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let old = (0..<450).map { post($0, tags: ["old"], daysAgo: 3 + Double($0) / 1_000) }
        let recent = (450..<460).map { post($0, tags: ["old"], daysAgo: 1) }
        let xPost = Post(
            id: "20", created: Date(timeIntervalSinceNow: -9 * 86_400), author: Author(handle: "x", name: "X"),
            text: "an old tweet")
        _ = try await corpus.add(old + recent + [xPost])
        let before = try await corpus.bytesOnDisk()
        var total = IngestProgress(stored: 461)
        var retention = LiveIndexRetention(keepDays: 2)
        try await retention.prune(corpus, into: &total)
        #expect(total.pruned == 450 && total.stored == 11)
        #expect(try await corpus.search(SearchQuery(parsing: "#old"), .newest, count: 100).posts.count == 10)
        #expect(try await corpus.post(id: "20") != nil, "only the live index's network is pruned")
        #expect(before > 0)
        try await retention.prune(corpus, into: &total)
        #expect(total.pruned == 450, "not due again for a minute")
    }
}
