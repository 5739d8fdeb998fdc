import TestSupport
import Testing

@testable import Posts
@testable import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one writer of a post's JSON (`inspect --format json`, the JSON twins, exports, the stores) writes what
/// `JSONEncoder` writes for the same members (`EncodedPost`), byte for byte.
struct PublicPostJSONTests {
    /// Every control character, quotes, backslashes, slashes, HTML's specials and text beyond the BMP.
    private static let awkward =
        String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "\u{2028}é😀\u{FFFD}</a>"

    private static let quoted = Post(
        network: .mastodon, id: "1", created: Date(timeIntervalSince1970: 1_700_000_000.999), author: alice,
        text: "the quoted one #a", mentions: [Mention(kind: .hashtag, keyword: "#a", range: 15..<17)],
        url: "https://example.social/@alice/1"
    )

    private static let alice = Author(
        handle: "alice@example.social", name: "Alice \(awkward)", profileImageURL: "https://example.social/a.png")

    private static let full = Post(
        network: .mastodon, id: "2", created: Date(timeIntervalSince1970: -1.5), author: alice, text: awkward,
        mentions: [
            Mention(
                kind: .url, keyword: "https://t.co/x", range: 0..<14, expandedURL: "https://a.example/é",
                display: "a.example/…"),
            Mention(kind: .user, keyword: "@b", range: 20..<22),
        ],
        media: [
            MediaItem(url: "https://example.social/a.png", aspectRatio: 1.5, alt: "A \"quoted\" <alt>\nover two"),
            MediaItem(
                url: "https://example.social/v.png", aspectRatio: 16.0 / 9, kind: .video,
                playURL: "https://example.social/v.mp4", duration: 88.654),
            MediaItem(url: "", aspectRatio: 1, kind: .audio, playURL: "https://example.social/a.mp3", duration: 1e-5),
            MediaItem(url: "w", aspectRatio: 1e21, kind: .gifv, playURL: "https://example.social/g.mp4", duration: 3),
        ],
        repostedBy: Author(handle: "bob", name: "Bob"), quoted: quoted, inReplyToID: "0", displayStart: 3,
        contentWarning: "spoilers \(awkward)", isSensitive: true,
        card: LinkCard(url: "https://example.com/a", title: "A \"title\"", description: "d", imageURL: "https://i/a"),
        url: "https://example.social/@alice/2", language: "pt-BR"
    )

    private static let plain = Post(
        id: "1440717170493689866", created: Date(timeIntervalSince1970: 1_632_328_715.123), author: .unknown,
        text: "hi")

    @Test(arguments: [full, quoted, plain])
    func isPublicJSONByteForByte(post: Post) {
        #expect(post.publicJSON == PublicJSON.text(EncodedPost(post)))
    }
}
