import FixtureFolders
import Foundation
import Testing

@testable import Bluesky
@testable import Posts
@testable import WireJSON

/// Every post view under ../shared/fixtures/bluesky (bskyr's recorded responses, marshalx-atproto's examples): each
/// facet that agrees with its text is a mention at its exact code-point range, each image keeps its aspect ratio (0
/// when the view gives none), and the permalink is bsky.app's.
@Suite(.enabled(if: BlueskyFixtures.isPresent, "../shared/fixtures/bluesky is absent"))
struct BlueskyConformanceTests {
    @Test func everyPostViewReadsExactly() throws {
        var (posts, facets, images) = (0, 0, 0)
        for file in BlueskyFixtures.files {
            for view in try BlueskyFixtures.postViews(in: file) {
                let name = "\((file as NSString).lastPathComponent) \(view["uri"]?.string ?? "?")"
                let post = try PostViewDecoder.post(from: view)
                #expect(post.network == .bluesky && post.id == view["uri"]?.string, "\(name)")
                #expect(
                    post.url.hasPrefix("https://bsky.app/profile/")
                        && post.url.hasSuffix("/post/" + (post.id.split(separator: "/").last ?? "")), "\(name)")
                facets += checkFacets(of: post, view: view, name: name)
                images += checkImages(of: post, view: view, name: name)
                posts += 1
            }
        }
        #expect(posts >= 90 && facets >= 120 && images >= 20, "posts \(posts), facets \(facets), images \(images)")
    }

    /// Authors who labelled their profile `!no-unauthenticated` (one in bskyr's recorded search, by its own DID) are
    /// the posts a visitor is never shown; everyone else's posts are not, and no label is read from anywhere else.
    @Test func theAuthorsWhoAskForSignInAreThoseWhoseProfileSaysSo() throws {
        var (asking, others) = (Set<String>(), 0)
        for file in BlueskyFixtures.files {
            for view in try BlueskyFixtures.postViews(in: file) {
                let post = try PostViewDecoder.post(from: view)
                let labels = view["author"]?["labels"]?.array ?? []
                let says = labels.contains { $0["val"]?.string == "!no-unauthenticated" }
                #expect(post.signedInOnly == says, "\(post.id)")
                #expect(post.forVisitors == (says ? nil : post), "\(post.id)")
                if says { asking.insert(post.author.handle) } else { others += 1 }
            }
        }
        #expect(asking.contains("bathshebablue.bsky.social") && others >= 90, "\(asking), \(others) others")
    }

    /// Jetstream sends the record alone: read as a record, each post has the same text, mentions, quote and reply
    /// as its view, and its images are the very CDN addresses the view gives, built from the DID and the blobs' CIDs.
    @Test func everyPostsRecordReadsAsItsView() throws {
        var (posts, images) = (0, 0)
        for file in BlueskyFixtures.files {
            for view in try BlueskyFixtures.postViews(in: file) {
                guard let uri = view["uri"]?.string, let record = view["record"] ?? view["value"] else { continue }
                let did = String(uri.split(separator: "/")[1])
                let expected = try PostViewDecoder.post(from: view)
                let post = try PostRecordDecoder.post(record, uri: uri, did: did, time: 0)
                #expect(post.text == expected.text && post.mentions == expected.mentions, "\(uri)")
                #expect(post.quotedID == expected.quotedID && post.inReplyToID == expected.inReplyToID, "\(uri)")
                #expect(post.created == expected.created, "\(uri)")
                let shown = expected.media.filter { $0.kind == .photo }.map(\.url)
                #expect(post.media.filter { $0.kind == .photo }.map(\.url) == shown, "\(uri)")
                (posts, images) = (posts + 1, images + shown.count)
            }
        }
        #expect(posts >= 90 && images >= 20, "posts \(posts), images \(images)")
    }

    /// Facets, converted here independently: UTF-8 offsets to scalar offsets through the standard library's views.
    private func checkFacets(of post: Post, view: JSONValue, name: String) -> Int {
        let record = view["record"] ?? view["value"]
        var checked = 0
        for facet in record?["facets"]?.array ?? [] {
            guard let expected = ExpectedFacet(facet, text: post.text) else { continue }
            #expect(
                post.mentions.contains {
                    $0.kind == expected.kind && $0.range == expected.range && $0.keyword == expected.slice
                }, "\(name): \(expected)")
            checked += 1
        }
        let scalars = Array(post.text.unicodeScalars)
        for mention in post.mentions {
            #expect(String(String.UnicodeScalarView(scalars[mention.range])) == mention.keyword, "\(name)")
        }
        return checked
    }

    private func checkImages(of post: Post, view: JSONValue, name: String) -> Int {
        let embed = view["embed"] ?? view["embeds"]?.array?.first
        let images = (embed?["images"] ?? embed?["media"]?["images"])?.array ?? []
        #expect(post.media.count == images.count, "\(name)")
        for (item, image) in zip(post.media, images) {
            #expect(item.url == image["fullsize"]?.string, "\(name)")
            let ratio =
                image["aspectRatio"].flatMap { ratio in
                    ratio["width"]?.double.flatMap { width in ratio["height"]?.double.map { width / $0 } }
                } ?? 0
            #expect(item.aspectRatio == ratio, "\(name)")
        }
        return images.count
    }
}

/// A facet as the fixtures state it, when its range is on the text's code points and its text agrees with it.
private struct ExpectedFacet: CustomStringConvertible {
    let kind: Mention.Kind
    let range: Range<Int>
    let slice: String

    init?(_ facet: JSONValue, text: String) {
        let utf8 = text.utf8
        guard let start = facet["index"]?["byteStart"]?.int, let end = facet["index"]?["byteEnd"]?.int, start < end,
            end <= utf8.count,
            let lower = utf8.index(utf8.startIndex, offsetBy: start).samePosition(in: text.unicodeScalars),
            let upper = utf8.index(utf8.startIndex, offsetBy: end).samePosition(in: text.unicodeScalars),
            let feature = facet["features"]?.array?.first
        else { return nil }
        slice = String(text.unicodeScalars[lower..<upper])
        range =
            text.unicodeScalars.distance(
                from: text.unicodeScalars.startIndex, to: lower)..<text.unicodeScalars.distance(
                from: text.unicodeScalars.startIndex, to: upper)
        switch feature["$type"]?.string {
        case "app.bsky.richtext.facet#mention" where slice.hasPrefix("@"): kind = .user
        case "app.bsky.richtext.facet#tag" where slice == "#" + (feature["tag"]?.string ?? ""): kind = .hashtag
        case "app.bsky.richtext.facet#link" where feature["uri"]?.string?.hasPrefix("http") == true: kind = .url
        default: return nil
        }
    }

    var description: String { "\(kind) \(slice) at \(range)" }
}

enum BlueskyFixtures {
    static let folder = FixtureFolder("bluesky")

    static var isPresent: Bool { folder.isPresent }

    /// The recorded responses and examples; the lexicons are the reference for shapes, not posts.
    static var files: [String] { folder.files(skipping: ["lexicons"]) }

    /// Every post view (`uri`, `author`, `record` a post) and quoted `viewRecord` (`value` a post), wherever it sits.
    static func postViews(in file: String) throws -> [JSONValue] {
        try FixtureFolder.objects(in: file) { object in
            object["uri"] != nil && object["author"] != nil
                && (object["record"] ?? object["value"])?["$type"]?.string == "app.bsky.feed.post"
        }
    }
}
