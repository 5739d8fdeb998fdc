import AppStore
import Exports
import Foundation
import Posts
import Testing
import ZIPFoundation

/// Datasets as other tools read them: NDJSON lines that are the API's post JSON, tidy CSV tables, pseudonyms that
/// hide the people and keep the offsets' meaning, files that appear whole or not at all.
struct DatasetTests {
    private static let quoted = Post(
        network: .twitter, id: "7", created: Date(timeIntervalSince1970: 1_700_000_000),
        author: Author(handle: "carol", name: "Carol C", profileImageURL: "https://pbs.twimg.com/carol.jpg"),
        text: "quoted 🌍")

    /// A post with every field, its text beyond the BMP.
    static let full = Post(
        network: .twitter, id: "42", created: Date(timeIntervalSince1970: 1_700_000_100),
        author: Author(handle: "Alice", name: "Alice A", profileImageURL: "https://pbs.twimg.com/alice.jpg"),
        text: "@bob 𠮷 hi, \"you\"\n#Swift https://t.co/x https://t.co/y",
        mentions: [
            Mention(kind: .user, keyword: "@bob", range: 0..<4),
            Mention(kind: .hashtag, keyword: "#Swift", range: 17..<23),
            Mention(
                kind: .url, keyword: "https://t.co/x", range: 24..<38, expandedURL: "https://x.com/bob/status/99",
                display: "x.com/bob/status/99"),
            Mention(
                kind: .url, keyword: "https://t.co/y", range: 39..<53, expandedURL: "https://example.com/a?b=c",
                display: "example.com/a?b=c"),
        ],
        media: [
            MediaItem(
                url: "https://pbs.twimg.com/media/a.jpg", aspectRatio: 1.5, kind: .video,
                playURL: "https://video.twimg.com/a.mp4", alt: "a dog, running", duration: 3.5)
        ],
        repostedBy: Author(handle: "dave", name: "Dave D"), quoted: quoted, inReplyToID: "41", inReplyToUser: "bob",
        displayStart: 5,
        contentWarning: "cw", isSensitive: true,
        card: LinkCard(url: "https://example.com/a", title: "A", description: "d", imageURL: "https://example.com/i"),
        language: "en")

    private func batches(_ posts: [CountedPost]) -> AsyncStream<[CountedPost]> {
        AsyncStream { continuation in
            continuation.yield(posts)
            continuation.finish()
        }
    }

    /// A term's dataset of `posts`, as an export of "#a" makes it.
    private func dataset(
        _ posts: [CountedPost], pseudonymiser: Pseudonymiser? = nil
    ) -> Dataset<AsyncStream<[CountedPost]>> {
        let provenance = Provenance(
            subject: .term("#a"), window: .all, made: Date(), pseudonymised: pseudonymiser != nil, demoSeed: nil)
        return Dataset(batches: batches(posts), tables: nil, pseudonymiser: pseudonymiser, provenance: provenance)
    }

    private func ndjson(_ posts: [CountedPost], pseudonymiser: Pseudonymiser? = nil) async throws -> [[String: Any]] {
        var bytes: [UInt8] = []
        let dataset = dataset(posts, pseudonymiser: pseudonymiser)
        #expect(try await dataset.writeNDJSON { bytes += $0 } == posts.count)
        return try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func aLineIsThePostsJSONAsTheAPIGivesItWithItsCountedTime() async throws {
        let counted = Date(timeIntervalSince1970: 1_700_000_200.25)
        let line = try #require(try await ndjson([CountedPost(post: Self.full, counted: counted)]).first)
        var api = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.full.publicJSON.utf8)) as? [String: Any])
        api["counted"] = "2023-11-14T22:16:40.25Z"
        #expect(NSDictionary(dictionary: line) == NSDictionary(dictionary: api))
    }

    @Test func timesKeepTheirFractionToTheMicrosecond() async throws {
        let post = Post(
            id: "1", created: Date(timeIntervalSince1970: 1_700_000_000.123456), author: Author(handle: "a", name: "A"),
            text: "t")
        let line = try #require(try await ndjson([CountedPost(post: post, counted: nil)]).first)
        #expect(line["created"] as? String == "2023-11-14T22:13:20.123456Z")
        #expect(line["counted"] == nil)
    }

    @Test func theTablesHoldARowPerPostMentionAndMediumQuotedAsRFC4180() async throws {
        let folder = NSTemporaryDirectory() + "dataset-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dataset = dataset([CountedPost(post: Self.full, counted: nil)])
        #expect(try await dataset.writeFolder(at: folder, replacing: false) == 1)
        let posts = try String(contentsOfFile: folder + "/posts.csv", encoding: .utf8)
        #expect(
            posts == """
                network,post_id,url,created,counted,author_handle,author_name,text,language,reply_to,reply_to_user,\
                quote_of,reposted_by,content_warning,sensitive,signed_in_only\r
                twitter,42,https://x.com/i/status/42,2023-11-14T22:15:00Z,,Alice,Alice A,"'@bob 𠮷 hi, ""you""
                #Swift https://t.co/x https://t.co/y",en,41,bob,7,dave,cw,true,false\r

                """)
        let mentions = try String(contentsOfFile: folder + "/mentions.csv", encoding: .utf8)
        #expect(mentions.hasPrefix("network,post_id,kind,mention,start,end,url\r\ntwitter,42,user,'@bob,0,4,\r\n"))
        let media = try String(contentsOfFile: folder + "/media.csv", encoding: .utf8)
        #expect(
            media == "network,post_id,kind,url,play_url,aspect_ratio,alt\r\n"
                + "twitter,42,video,https://pbs.twimg.com/media/a.jpg,https://video.twimg.com/a.mp4,1.5,"
                + "\"a dog, running\"\r\n"
        )
        #expect(
            !FileManager.default.fileExists(atPath: folder + "/popularity.csv"), "a query's dataset has no term tables")
    }

    @Test func aFolderOrZipThatExistsIsReplacedOnlyWhenAsked() async throws {
        let base = NSTemporaryDirectory() + "dataset-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let dataset = dataset([CountedPost(post: Self.full, counted: nil)])
        try "keep".write(toFile: base + "/out.zip", atomically: true, encoding: .utf8)
        await #expect(throws: DatasetError.exists(base + "/out.zip")) {
            try await dataset.writeZip(at: base + "/out.zip", replacing: false)
        }
        #expect(try String(contentsOfFile: base + "/out.zip", encoding: .utf8) == "keep")
        try await dataset.writeZip(at: base + "/out.zip", replacing: true)
        let archive = try Archive(url: URL(fileURLWithPath: base + "/out.zip"), accessMode: .read)
        #expect(archive.map(\.path) == ["out/posts.csv", "out/mentions.csv", "out/media.csv", "out/datapackage.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: base) == ["out.zip"], "no temporary file is left")
    }

    private let secret = Array(repeating: UInt8(7), count: 32)

    @Test func pseudonymsReplaceEveryPersonAndKeepTheOffsetsMeaning() throws {
        let pseudonymiser = Pseudonymiser(secret: secret)
        let post = pseudonymiser.apply(to: Self.full)
        let bob = pseudonymiser.pseudonym(of: "bob")
        #expect(bob.count == 18 && bob.hasPrefix("p_"))
        #expect(post.author == Author(handle: pseudonymiser.pseudonym(of: "alice"), name: ""))
        #expect(post.repostedBy?.handle == pseudonymiser.pseudonym(of: "DAVE"))
        #expect(post.quoted?.author.handle == pseudonymiser.pseudonym(of: "carol"))
        #expect(post.inReplyToUser == bob, "whom it answers is a person too")
        #expect(post.text.hasPrefix("@\(bob) 𠮷 hi"))
        let scalars = Array(post.text.unicodeScalars)
        for mention in post.mentions {
            #expect(String(String.UnicodeScalarView(scalars[mention.range])) == mention.keyword)
        }
        #expect(post.displayStart == bob.count + 2)
        // The permalink naming bob is X's form without a name; the other link is kept as it was.
        #expect(post.mentions[2].expandedURL == "https://x.com/i/status/99" && post.mentions[2].display == nil)
        #expect(post.mentions[3].expandedURL == "https://example.com/a?b=c")
        #expect(post.url == "https://x.com/i/status/42")
        let everything = "\(post)".lowercased()
        for name in ["alice", "bob", "carol", "dave", "twimg.com/alice", "twimg.com/carol"] {
            #expect(!everything.contains(name), "\(name) is gone")
        }
        #expect(Pseudonymiser(secret: secret).apply(to: Self.full) == post, "the same secret, the same pseudonyms")
        #expect(Pseudonymiser(secret: Array(repeating: 8, count: 32)).pseudonym(of: "bob") != bob)
    }

    @Test func linksThatNameAPersonAreLeftOut() {
        let post = Post(
            network: .bluesky, id: "at://did:plc:abc123/app.bsky.feed.post/3k", created: Date(),
            author: Author(handle: "erin.bsky.social", name: "Erin"),
            text: "see bsky.app/profile/fay.bsky.social and https://mastodon.social/@gus/1 ok",
            mentions: [
                Mention(
                    kind: .url, keyword: "bsky.app/profile/fay.bsky.social", range: 4..<36,
                    expandedURL: "https://bsky.app/profile/fay.bsky.social"),
                Mention(kind: .url, keyword: "https://mastodon.social/@gus/1", range: 41..<71),
            ],
            media: [MediaItem(url: "https://cdn.bsky.app/img/feed/plain/did:plc:abc123/bafy@jpeg", aspectRatio: 1)],
            inReplyToID: "at://did:plc:zzz9/app.bsky.feed.post/2j")
        let pseudonymiser = Pseudonymiser(secret: secret)
        let shared = pseudonymiser.apply(to: post)
        #expect(shared.text == "see [link removed] and [link removed] ok")
        #expect(shared.mentions.isEmpty)
        #expect(shared.id == "at://\(pseudonymiser.pseudonym(of: "did:plc:abc123"))/app.bsky.feed.post/3k")
        #expect(shared.inReplyToID == "at://\(pseudonymiser.pseudonym(of: "did:plc:zzz9"))/app.bsky.feed.post/2j")
        #expect(shared.media.first?.url == "" && shared.url == "")
        let everything = "\(shared)".lowercased()
        for name in ["did:plc", "erin", "fay", "gus"] { #expect(!everything.contains(name), "\(name) is gone") }
    }

    @Test func theSecretIsMadeOnceKeptPrivateAndAMalformedOneIsNamed() throws {
        let folder = NSTemporaryDirectory() + "secret-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try PseudonymKey.secret(in: folder)
        #expect(first.count == 32)
        #expect(try PseudonymKey.secret(in: folder) == first)
        let path = folder + "/" + PseudonymKey.fileName
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try "not hex".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: DatasetError.self) { try PseudonymKey.secret(in: folder) }
        do { _ = try PseudonymKey.secret(in: folder) } catch { #expect("\(error)".contains(path)) }
    }

    @Test func aSecretThatCannotBeMadeSaysWhyInWordsNotErrorNumbers() {
        let folder = NSTemporaryDirectory() + "no-such-\(UUID().uuidString)"
        do {
            _ = try PseudonymKey.secret(in: folder)
            Issue.record("a secret was made in a folder that does not exist")
        } catch {
            #expect(
                error.description
                    == """
                    Cannot use the pseudonyms' secret “\(folder)/pseudonym-key”: cannot create it: its folder does not \
                    exist.
                    """)
        }
    }
}
