import Foundation
import Posts
import TestSupport
import Testing
import WireJSON

@testable import Corpus
@testable import FileImport

/// `smashtag import` reads Mastodon's and Bluesky's files and Smashtag's own export into the corpus, each post under
/// its network and id: the project's own fixtures (`Fixtures/`, made by `make_fixtures.py` in the networks' real
/// formats, each with one broken item), searched as any post is.
struct ImportFormatsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// What importing one file told and left.
    struct Run {
        var totals = ImportTotals()
        var malformed: [String] = []
        var notes: [String] = []
    }

    static func importFile(_ path: String, into corpus: any PostCorpus) async throws -> Run {
        var run = Run()
        run.totals = try await PostImporter(corpus: corpus).importFile(path) { event in
            switch event {
            case .progress: break
            case .malformed(let problem): run.malformed.append(problem.description)
            case .note(let note): run.notes.append(note.description)
            }
        }
        return run
    }

    private func ids(_ query: String, in corpus: any PostCorpus) async throws -> [String] {
        try await corpus.search(SearchQuery(parsing: query), .newest, count: 100).posts.map(\.id)
    }

    private static func date(_ text: String) -> Date { WireDate.parseISO8601(text)! }

    // MARK: Mastodon

    @Test func mastodonStatusesImportWithBoostsRepliesMediaWarningsAndLanguages() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let path = Self.fixture("mastodon-statuses.json")
        let run = try await Self.importFile(path, into: corpus)
        #expect(run.totals.imported == 4 && run.totals.duplicates == 0 && run.totals.skipped == 1)
        #expect(run.malformed == ["\(path):284: status 113000000000000004 has no valid created_at"])

        let first = try #require(try await corpus.post(id: "113000000000000001"))
        #expect(first.network == .mastodon && first.author.handle == "alice@fosstodon.org")
        #expect(first.author.name == "Alice 🌊" && first.created == Self.date("2024-09-01T08:00:00Z"))
        #expect(first.text == "Morning fog over the #harbor 🌫️ with @bob@other.example")
        #expect(
            first.mentions == [
                Mention(kind: .hashtag, keyword: "#harbor", range: 21..<28),
                Mention(kind: .user, keyword: "@bob@other.example", range: 37..<55),
            ], "code points: 🌫️ is two")
        #expect(first.language == "en" && first.url == "https://fosstodon.org/@alice/113000000000000001")

        let boost = try #require(try await corpus.post(id: "113000000000000002"))
        #expect(boost.author.handle == "carol@photo.example" && boost.repostedBy?.handle == "dave@fosstodon.org")
        #expect(boost.text == "Nebel im #harbor heute 🚢" && boost.language == "de")
        #expect(boost.created == Self.date("2024-09-01T09:00:00Z"), "a boost keeps its own time")

        let reply = try #require(try await corpus.post(id: "113000000000000003"))
        #expect(reply.inReplyToID == "113000000000000001" && reply.language == "fr")
        #expect(reply.contentWarning == "Bright photos" && reply.isSensitive)
        #expect(reply.text == "@alice@fosstodon.org voilà la #brume du matin")
        #expect(reply.mentions.map(\.range) == [0..<20, 30..<36])
        #expect(
            reply.media == [
                MediaItem(
                    url: "https://files.fosstodon.org/media_attachments/files/113/000/000/original/fog.jpg",
                    aspectRatio: 4.0 / 3, alt: "Fog over the harbor at dawn, two boats moored")
            ])
        #expect(reply.created == Self.date("2024-09-01T10:30:00.250Z"))

        let last = try #require(try await corpus.post(id: "113000000000000005"))
        #expect(last.text == "👩‍💻 東京で #harbor 勉強会 example.com/meetup" && last.language == "ja")
        #expect(
            last.mentions == [
                Mention(kind: .hashtag, keyword: "#harbor", range: 8..<15),
                Mention(
                    kind: .url, keyword: "example.com/meetup", range: 20..<38,
                    expandedURL: "https://example.com/meetup"),
            ])
        #expect(last.card?.title == "Harbor meetup" && last.card?.description == "Tokyo, Saturday")

        #expect(
            try await ids("#harbor", in: corpus) == ["113000000000000005", "113000000000000002", "113000000000000001"])
        #expect(try await ids("from:alice@fosstodon.org", in: corpus) == ["113000000000000005", "113000000000000001"])
        #expect(try await ids("from:dave@fosstodon.org", in: corpus) == ["113000000000000002"])
        #expect(try await ids("@bob@other.example", in: corpus) == ["113000000000000001"])
        #expect(try await ids("brume filter:media", in: corpus) == ["113000000000000003"])
    }

    /// The same statuses one per line are the same posts: nothing is added, and the broken one is named by its line.
    @Test func statusesOnePerLineAreTheSamePostsAndImportingTwiceAddsNothing() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await Self.importFile(Self.fixture("mastodon-statuses.json"), into: corpus)
        let lines = Self.fixture("mastodon-statuses.jsonl")
        let run = try await Self.importFile(lines, into: corpus)
        #expect(run.totals.imported == 0 && run.totals.duplicates == 4 && run.totals.skipped == 1)
        #expect(run.malformed == ["\(lines):4: status 113000000000000004 has no valid created_at"])
        let again = try await Self.importFile(lines, into: corpus)
        #expect(again.totals.imported == 0 && again.totals.duplicates == 4)
        #expect(try await corpus.postCount() == 4)
    }

    /// Mastodon's ids are digits, as X's are: a page after a Mastodon post goes on from that post.
    /// Issue 51: an author who has not opted in to search (`indexable: false`) is never stored in the corpus.
    @Test func statusesOfAuthorsWhoHaveNotOptedInToSearchAreWithheld() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let path = NSTemporaryDirectory() + "withheld-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let statuses = [("1", false), ("2", true), ("3", false)].map { id, indexable in
            """
            {"id":"\(id)","created_at":"2024-09-01T08:00:0\(id)Z","content":"<p>hello \(id)</p>",\
            "url":"https://home.example/@p\(id)/\(id)","account":{"id":"a\(id)","username":"p\(id)","acct":"p\(id)",\
            "url":"https://home.example/@p\(id)","display_name":"P\(id)","indexable":\(indexable)}}
            """
        }
        try ("[" + statuses.joined(separator: ",") + "]").write(toFile: path, atomically: true, encoding: .utf8)
        let run = try await Self.importFile(path, into: corpus)
        #expect(run.totals.imported == 1 && run.totals.withheld == 2 && run.totals.skipped == 0)
        #expect(try await corpus.post(id: "2")?.author.handle == "p2@home.example")
        #expect(try await corpus.post(id: "1") == nil)
        #expect(try await corpus.post(id: "3") == nil)
    }

    @Test func pagesOfMastodonPostsFollowEachOtherWithoutGaps() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await Self.importFile(Self.fixture("mastodon-statuses.json"), into: corpus)
        let source = CorpusSource(corpus: corpus)
        let seen = try await source.idsOfEveryPage("#harbor OR #brume", count: 1)
        #expect(seen == ["113000000000000005", "113000000000000003", "113000000000000002", "113000000000000001"])
        let newer = try await source.search(SearchRequest(query: "#harbor", position: .newer(than: seen[2])))
        #expect(newer.posts.map(\.id) == [seen[0]])
    }

    // MARK: Bluesky

    @Test func aSearchPostsPageImportsWithFacetsAsCodePointsImagesAndLanguages() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let path = Self.fixture("bluesky-search.json")
        let run = try await Self.importFile(path, into: corpus)
        #expect(run.totals.imported == 3 && run.totals.skipped == 1)
        #expect(
            run.malformed == [
                "\(path):1: post 3: post at://did:plc:cleo4harbor/app.bsky.feed.post/3l3qo5aaaaa2d has no valid author"
            ])

        let sunrise = try #require(
            try await corpus.post(id: "at://did:plc:ana4harbor/app.bsky.feed.post/3l3qo2vutsw2b"))
        #expect(sunrise.network == .bluesky && sunrise.author.handle == "ana.bsky.social")
        #expect(sunrise.author.name == "Ana ⚓" && sunrise.language == "en")
        #expect(sunrise.text == "🌅 Sunrise at the #harbor with @ben.bsky.social")
        #expect(
            sunrise.mentions == [
                Mention(kind: .hashtag, keyword: "#harbor", range: 17..<24),
                Mention(kind: .user, keyword: "@ben.bsky.social", range: 30..<46),
            ], "UTF-8 byte offsets as code points: the sunrise is four bytes, one code point")
        #expect(
            sunrise.media == [
                MediaItem(
                    url: "https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:ana4harbor/bafkreisun@jpeg",
                    aspectRatio: 2000.0 / 1500, alt: "Sunrise over the harbor, gulls on the pier")
            ])
        #expect(sunrise.created.millisecondsSince1970 == Self.date("2024-09-02T06:00:00.123Z").millisecondsSince1970)
        #expect(sunrise.url == "https://bsky.app/profile/ana.bsky.social/post/3l3qo2vutsw2b")

        let tides = try #require(try await corpus.post(id: "at://did:plc:ben4harbor/app.bsky.feed.post/3l3qo4abcde2c"))
        #expect(tides.text == "潮の時刻表 🌊 #harbor example.com/tides" && tides.language == "ja")
        #expect(tides.mentions.map(\.range) == [8..<15, 16..<33])
        #expect(tides.mentions.last?.expandedURL == "https://example.com/tides")
        #expect(
            tides.card
                == LinkCard(
                    url: "https://example.com/tides", title: "Tide tables", description: "High and low water",
                    imageURL: "https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:ben4harbor/bafkreitide@jpeg"))

        let reply = try #require(try await corpus.post(id: "at://did:plc:cleo4harbor/app.bsky.feed.post/3l3qo6bbbbb2e"))
        #expect(reply.inReplyToID == sunrise.id && reply.author.name == "cleo.bsky.social")
        #expect(try await ids("@ana.bsky.social", in: corpus) == [reply.id])
        #expect(try await ids("#harbor", in: corpus) == [tides.id, sunrise.id])
    }

    /// `getAuthorFeed` saved a page per line: a repost keeps the repost's id and time and shows the original.
    @Test func anAuthorFeedImportsItsRepostsAndNamesTheBrokenItemsLine() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let path = Self.fixture("bluesky-author-feed.jsonl")
        let run = try await Self.importFile(path, into: corpus)
        #expect(run.totals.imported == 3 && run.totals.skipped == 1)
        #expect(
            run.malformed == [
                "\(path):2: post 2: post at://did:plc:ana4harbor/app.bsky.feed.post/3l3qp4aaaaa2i has no valid record"
            ])
        let repostID = "at://did:plc:ana4harbor/app.bsky.feed.repost/3l3qp2rrrrr2g"
        let repost = try #require(try await corpus.post(id: repostID))
        #expect(repost.author.handle == "ben.bsky.social" && repost.repostedBy?.handle == "ana.bsky.social")
        #expect(repost.text == "潮の時刻表 🌊 #harbor example.com/tides" && repost.language == "ja")
        #expect(repost.created == Self.date("2024-09-03T19:00:00Z"))
        let quiet = try #require(try await corpus.post(id: "at://did:plc:ana4harbor/app.bsky.feed.post/3l3qp3aaaaa2h"))
        #expect(quiet.language == nil, "no langs")
        #expect(
            try await ids("from:ana.bsky.social", in: corpus) == [
                quiet.id, repostID, "at://did:plc:ana4harbor/app.bsky.feed.post/3l3qp1aaaaa2f",
            ])
        #expect(try await ids("filter:retweets", in: corpus) == [repostID])
    }

    @Test func aGetPostsAnswerImportsAndNamesWhichPostIsBroken() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        let path = Self.fixture("bluesky-get-posts.json")
        let run = try await Self.importFile(path, into: corpus)
        #expect(run.totals.imported == 1 && run.totals.skipped == 1)
        #expect(
            run.malformed == [
                """
                \(path):1: post 2: post at://did:plc:ben4harbor/app.bsky.feed.post/3l3qq2aaaaa2k has no valid \
                createdAt
                """
            ])
        let post = try #require(try await corpus.post(id: "at://did:plc:ben4harbor/app.bsky.feed.post/3l3qq1aaaaa2j"))
        #expect(post.language == "en-GB")
    }

    /// Every network's posts in one corpus, searched and paged as one by time.
    @Test func everyNetworksPostsAreSearchedTogether() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        for file in ["mastodon-statuses.json", "bluesky-search.json", "bluesky-author-feed.jsonl"] {
            _ = try await Self.importFile(Self.fixture(file), into: corpus)
        }
        let found = try await corpus.search(SearchQuery(parsing: "#harbor"), .newest, count: 100).posts
        #expect(Set(found.map(\.network)) == [.mastodon, .bluesky])
        #expect(found.map(\.created) == found.map(\.created).sorted(by: >))
        #expect(found.count == 8)
    }

    // MARK: Smashtag's own export

    /// Posts of every network with every field the corpus keeps, at whole milliseconds as the corpus keeps time.
    static let exported: [Post] = [
        Post(
            network: .mastodon, id: "113000000000000009", created: Date(millisecondsSince1970: 1_725_177_600_123),
            author: Author(handle: "alice@fosstodon.org", name: "Alice", profileImageURL: "https://f.example/a.png"),
            text: "🇩🇿 #hirak with @bob@other.example https://t.example/a",
            mentions: [
                Mention(kind: .hashtag, keyword: "#hirak", range: 3..<9),
                Mention(kind: .user, keyword: "@bob@other.example", range: 15..<33),
                Mention(
                    kind: .url, keyword: "https://t.example/a", range: 34..<53, expandedURL: "https://example.com/a",
                    display: "example.com/a"),
            ],
            media: [
                MediaItem(url: "https://f.example/p.png", aspectRatio: 1.5, alt: "A \"quoted\" alt"),
                MediaItem(
                    url: "https://f.example/v.png", aspectRatio: 16.0 / 9, kind: .video,
                    playURL: "https://f.example/v.mp4", duration: 12.5),
            ],
            repostedBy: Author(handle: "dave@fosstodon.org", name: "Dave"), quotedID: "113000000000000001",
            inReplyToID: "113000000000000002", contentWarning: "CW", isSensitive: true,
            card: LinkCard(url: "https://example.com/a", title: "A", description: "d", imageURL: "https://e.x/i.png"),
            url: "https://fosstodon.org/@alice/113000000000000009", language: "pt-BR"),
        Post(
            network: .bluesky, id: "at://did:plc:ana4harbor/app.bsky.feed.post/3l3qz",
            created:
                Date(millisecondsSince1970: 1_725_177_601_000),
            author: Author(handle: "ana.bsky.social", name: "Ana"), text: "東京 👩‍💻 #一",
            mentions: [Mention(kind: .hashtag, keyword: "#一", range: 7..<9)],
            url: "https://bsky.app/profile/ana.bsky.social/post/3l3qz", language: "ja"),
        Post(
            id: "1830000000000000001", created: Date(millisecondsSince1970: 1_725_177_602_500),
            author: Author(handle: "nasa", name: "NASA"), text: "@esa hello #space",
            mentions: [
                Mention(kind: .user, keyword: "@esa", range: 0..<4),
                Mention(kind: .hashtag, keyword: "#space", range: 11..<17),
            ],
            inReplyToID: "1830000000000000000", displayStart: 5, language: "en"),
    ]

    /// The export's lines as the export writes them: the public form, times to the microsecond, and when each post
    /// was counted.
    static func exportFile(_ posts: [Post], broken: String) throws -> String {
        var lines = posts.map { post in
            var json = JSONWriter()
            json.writePublic(post, times: .microseconds(counted: WireDate.parseISO8601("2024-09-02T00:00:00Z")))
            return json.output.string
        }
        lines.insert(broken, at: 1)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString).ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    @Test func smashtagsExportImportsToPostsEqualToTheOriginals() async throws {
        let path = try Self.exportFile(
            Self.exported, broken: #"{"network":"mastodon","id":"5","created":"2024-09-01T00:00:00Z","text":"x"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let corpus = try SQLiteCorpus.inMemory()
        let run = try await Self.importFile(path, into: corpus)
        #expect(run.totals.imported == 3 && run.totals.skipped == 1)
        #expect(run.malformed == ["\(path):2: post 5 has no “user”"])
        for post in Self.exported {
            let stored = try await corpus.post(id: post.id)
            #expect(stored == post, "\(post.id)")
        }
        #expect(try await Self.importFile(path, into: corpus).totals.duplicates == 3)
    }

    /// An X post in Smashtag's own form with an id no X decoder accepts is named by file and line, the way `inspect`
    /// and `import` name every other broken line (issue 55: inspect printed “-5”, import skipped it without a line).
    @Test func anXPostWithABadIdInSmashtagsOwnFormIsNamedByFileAndLine() async throws {
        let broken =
            #"{"network":"twitter","id":"-5","created":"2024-09-01T00:00:00Z","text":"x","#
            + #""user":{"screenName":"nasa","name":"NASA"},"mentions":[],"media":[]}"#
        let path = try Self.exportFile(Self.exported, broken: broken)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await Self.importFile(path, into: try SQLiteCorpus.inMemory())
        #expect(run.totals.imported == 3 && run.totals.skipped == 1)
        #expect(run.malformed == ["\(path):2: the tweet id “-5” is not a whole number from 1 to \(Int64.max)"])
    }
}
