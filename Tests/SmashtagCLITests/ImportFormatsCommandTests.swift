import Foundation
import Testing

/// `smashtag import` of Mastodon's and Bluesky's files, each with a broken item (the corpus tests' fixtures): the good
/// posts are searchable, the bad ones are named by file and line, and the run says it skipped some.
struct ImportFormatsCommandTests {
    private let directory: String

    init() throws {
        directory = try SmashtagRun.temporaryDirectory()
    }

    private static func fixture(_ name: String) -> String {
        SmashtagRun.repository.appendingPathComponent("Tests/FileImportTests/Fixtures/\(name)").path
    }

    private func smashtag(_ arguments: String...) async throws -> SmashtagRun {
        try await SmashtagRun.run(arguments + ["--data-dir", directory])
    }

    /// The ids and networks of the posts a search finds, newest first.
    private func search(_ query: String) async throws -> [String] {
        let run = try await smashtag("search", query, "--count", "100", "--format", "json")
        try #require(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (document["tweets"] as? [[String: Any]] ?? []).map { "\($0["network"] ?? ""):\($0["id"] ?? "")" }
    }

    @Test func mastodonAndBlueskyFilesImportTheirGoodPostsAndNameTheBrokenOnes() async throws {
        let mastodon = Self.fixture("mastodon-statuses.json")
        let bluesky = Self.fixture("bluesky-search.json")
        let run = try await smashtag("import", mastodon, bluesky)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Imported 7 posts, 0 duplicates, 2 skipped"), "\(run.stdout)")
        let skipped = run.stderr.split(separator: "\n").filter { $0.hasSuffix("(skipped)") }
        #expect(
            skipped == [
                "smashtag: \(mastodon):284: status 113000000000000004 has no valid created_at (skipped)",
                """
                smashtag: \(bluesky):1: post 3: post at://did:plc:cleo4harbor/app.bsky.feed.post/3l3qo5aaaaa2d has no \
                valid author (skipped)
                """,
            ], "\(run.stderr)")

        #expect(
            try await search("#harbor") == [
                "bluesky:at://did:plc:ben4harbor/app.bsky.feed.post/3l3qo4abcde2c",
                "bluesky:at://did:plc:ana4harbor/app.bsky.feed.post/3l3qo2vutsw2b", "mastodon:113000000000000005",
                "mastodon:113000000000000002", "mastodon:113000000000000001",
            ])
        #expect(
            try await search("from:ana.bsky.social") == [
                "bluesky:at://did:plc:ana4harbor/app.bsky.feed.post/3l3qo2vutsw2b"
            ])
        #expect(try await search("brume") == ["mastodon:113000000000000003"])

        let again = try await smashtag("import", mastodon, bluesky)
        #expect(again.stdout.contains("Imported 0 posts, 7 duplicates, 2 skipped"), "\(again.stdout)")
    }

    /// `inspect` reads what `import` reads, and says the same about the broken items.
    @Test func inspectPrintsTheSamePosts() async throws {
        let feed = Self.fixture("bluesky-author-feed.jsonl")
        let run = try await smashtag("inspect", feed, "--format", "json")
        #expect(run.status == 1)
        #expect(run.stdout.split(separator: "\n").count == 3)
        #expect(run.stdout.contains(#""language":"ja""#) && run.stdout.contains(#""retweetedBy":{"#))
        #expect(
            run.stderr
                == """
                smashtag: \(feed):2: post 2: post at://did:plc:ana4harbor/app.bsky.feed.post/3l3qp4aaaaa2i has no \
                valid record

                """)
    }
}
