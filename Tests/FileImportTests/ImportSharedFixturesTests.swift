import FixtureFolders
import Foundation
import Posts
import Testing
import Twitter
import WireJSON

@testable import Corpus
@testable import FileImport

/// What the import reads of other people's recorded data (`../shared/fixtures`, read in place): every Mastodon status
/// and Bluesky post view in a statuses or posts answer imports, and a file that is not one is reported with a reason;
/// X's files read exactly as `TweetFileReader` reads them.
struct ImportSharedFixturesTests {
    /// One file's events, read as the import reads them.
    struct Read {
        var posts: [Post] = []
        var malformed: [DecodingProblem] = []
        var notes: [DecodingProblem] = []

        init(_ reader: some Sequence<PostFileEvent>) {
            for event in reader {
                switch event {
                case .post(let post): posts.append(post)
                case .malformed(let problem): malformed.append(problem)
                case .note(let note): notes.append(note)
                case .written: Issue.record("a reader not asked to write its posts gave them written")
                }
            }
        }
    }

    /// The payload a file holds: the documentation's examples are wrapped by whoever collected them
    /// (`{"_source", "example"}`), and the answer itself is what a person would save. Recorded responses
    /// (`{"_source", "body"}`) are read as they are: the import knows that wrapper, as X's reader does.
    private static func payload(of file: String) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        if let wrapper = try? JSONSerialization.jsonObject(with: data) as? [String: Any], wrapper["_source"] != nil,
            let example = wrapper["example"]
        {
            return Array(try JSONSerialization.data(withJSONObject: example, options: [.fragmentsAllowed]))
        }
        return Array(data)
    }

    private static func answer(of file: String) throws -> JSONValue {
        let value = try JSONValue.document(try payload(of: file))
        return value["_source"] != nil ? value["body"] ?? value : value
    }

    @Test(.enabled(if: FixtureFolder("mastodon").isPresent, "../shared/fixtures/mastodon is absent"))
    func everyMastodonStatusImportsOrIsReported() throws {
        var (imported, reported) = (0, 0)
        for file in FixtureFolder("mastodon").files() {
            let name = file.split(separator: "/").suffix(2).joined(separator: "/")
            let read = Read(PostFileReader(bytes: try Self.payload(of: file), name: name))
            let answer = try Self.answer(of: file)
            guard let statuses = answer.array ?? answer["statuses"]?.array ?? (answer["content"].map { _ in [answer] })
            else {
                // Not statuses (an account, a media attachment, a tag, an error): said, with what it is.
                let said = read.malformed + read.notes
                #expect(read.posts.isEmpty && said.count == 1, "\(name)")
                #expect(
                    said.allSatisfy {
                        $0.message.hasPrefix("not a format Smashtag knows") || $0.message.hasPrefix("an API error")
                    }, "\(name): \(said)")
                reported += said.count
                continue
            }
            // Every whole status is a post under its own id; a partial one (no account) is named with its reason.
            let whole = statuses.filter { $0["account"]?.object != nil && $0["created_at"] != nil }
            #expect(read.posts.map(\.id) == whole.compactMap { $0["id"]?.string }, "\(name)")
            #expect(read.posts.allSatisfy { $0.network == .mastodon }, "\(name)")
            #expect(read.posts.count + read.malformed.count == statuses.count, "\(name): \(read.malformed)")
            imported += read.posts.count
            reported += read.malformed.count + read.notes.count
        }
        #expect(imported >= 12 && reported >= 20, "imported \(imported), reported \(reported)")
    }

    @Test(.enabled(if: FixtureFolder("bluesky").isPresent, "../shared/fixtures/bluesky is absent"))
    func everyBlueskyPostViewOfAnAnswerImports() throws {
        var imported = 0
        for file in FixtureFolder("bluesky").files(skipping: ["lexicons"]) {
            let name = (file as NSString).lastPathComponent
            let read = Read(PostFileReader(bytes: try Self.payload(of: file), name: name))
            let answer = try Self.answer(of: file)
            let expected = Self.postIDs(of: answer)
            if let expected {
                #expect(read.posts.map(\.id) == expected, "\(name)")
                #expect(read.malformed.isEmpty && read.notes.isEmpty, "\(name): \(read.malformed)")
            } else {
                // A record without its author's profile, another collection's record, a list of follows: said, with
                // what it is or lacks.
                let said = read.malformed + read.notes
                #expect(read.posts.isEmpty && said.count == 1, "\(name)")
                #expect(
                    said.allSatisfy {
                        $0.message.hasSuffix("has no valid author") || $0.message.hasSuffix("record, not a post")
                            || $0.message.hasPrefix("not a format")
                    }, "\(name): \(said)")
            }
            #expect(read.posts.allSatisfy { $0.network == .bluesky && $0.id.hasPrefix("at://") }, "\(name)")
            imported += read.posts.count
        }
        #expect(imported >= 95, "imported \(imported)")
    }

    /// The ids the answer's posts have, found here by walking it as the lexicons describe it: `posts[].uri`; a feed's
    /// items by `post.uri`, or a repost by its own `reason.uri`; a thread's parents, post and replies.
    private static func postIDs(of answer: JSONValue) -> [String]? {
        if let posts = answer["posts"]?.array { return posts.compactMap { $0["uri"]?.string } }
        if let feed = answer["feed"]?.array {
            return feed.compactMap { item in
                let isRepost = item["reason"]?["$type"]?.string == "app.bsky.feed.defs#reasonRepost"
                return (isRepost ? item["reason"]?["uri"]?.string : nil) ?? item["post"]?["uri"]?.string
            }
        }
        guard let thread = answer["thread"] else { return nil }
        var parents: [String] = []
        var parent = thread["parent"]
        while let node = parent, let uri = node["post"]?["uri"]?.string {
            parents.insert(uri, at: 0)
            parent = node["parent"]
        }
        func below(_ node: JSONValue) -> [String] {
            guard let uri = node["post"]?["uri"]?.string else { return [] }
            return [uri] + (node["replies"]?.array ?? []).flatMap(below)
        }
        return parents + below(thread)
    }

    /// X's files, ours and the shared ones: the same posts, the same problems on the same lines, and the same notes,
    /// as `TweetFileReader` reads; only the list of formats an unknown object is told about is longer.
    @Test func xsFilesReadAsTweetFileReaderReadsThem() throws {
        let ours = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TwitterTests/Fixtures")
        let names = FileManager.default.enumerator(atPath: ours.path)?.allObjects as? [String] ?? []
        let extensions: Set<String> = ["json", "jsonl", "js"]
        let files =
            names.filter { extensions.contains(($0 as NSString).pathExtension) && $0 != "expected.json" }.sorted()
            .map { ours.appendingPathComponent($0).path }
            + ["twitter-v1.1", "twitter-v2"].flatMap { FixtureFolder($0).files(extensions: extensions) }
        var posts = 0
        for file in files {
            let tweets = Read(try TweetFileReader(path: file))
            let read = Read(try PostFileReader(path: file))
            #expect(read.posts == tweets.posts, "\(file)")
            #expect(Self.same(read.malformed, tweets.malformed), "\(file)")
            #expect(Self.same(read.notes, tweets.notes), "\(file)")
            posts += read.posts.count
        }
        #expect(posts >= 40, "posts \(posts)")
    }

    /// The same lines and messages, but where the import speaks of posts of any network: the formats an unknown
    /// object is none of, and an error body (`{"error": …}`, which Mastodon and Bluesky send too).
    private static func same(_ problems: [DecodingProblem], _ xs: [DecodingProblem]) -> Bool {
        problems.count == xs.count
            && zip(problems, xs).allSatisfy { problem, x in
                let general = x.message
                    .replacingOccurrences(
                        of: "(expected \(DocumentDecoder.formats))", with: "(expected \(AnyNetworkDecoder.formats))"
                    )
                    .replacingOccurrences(
                        of: "an API error response, not tweets: ", with: "an API error response, not posts: ")
                return problem.file == x.file && problem.line == x.line
                    && (problem.message == x.message || problem.message == general)
            }
    }
}
