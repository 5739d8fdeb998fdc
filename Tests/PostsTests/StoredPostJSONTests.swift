import Testing

@testable import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The stored form: the public form with times to the microsecond, read back equal by `Post(jsonText:)`, which still
/// reads what earlier releases stored (`created` as seconds since 2001).
struct StoredPostJSONTests {
    private static let alice = Author(handle: "alice@example.social", name: "Alice")

    private static let quoted = Post(
        network: .mastodon, id: "1", created: Date(timeIntervalSince1970: 1_700_000_000), author: alice,
        text: "the quoted one #a", mentions: [Mention(kind: .hashtag, keyword: "#a", range: 15..<17)],
        url: "https://example.social/@alice/1"
    )

    @Test func everyFieldSurvivesTheStoredForm() throws {
        let post = Post(
            network: .mastodon, id: "2", created: Date(timeIntervalSince1970: 1_700_000_060.5), author: Self.alice,
            text: "quoting",
            media: [
                MediaItem(
                    url: "https://example.social/a.png", aspectRatio: 1.5, alt: "A \"quoted\" <alt>\nover two lines"),
                MediaItem(
                    url: "https://example.social/v.png", aspectRatio: 16.0 / 9, kind: .video,
                    playURL: "https://example.social/v.mp4", duration: 88.654),
                MediaItem(url: "", aspectRatio: 0, kind: .audio, playURL: "https://example.social/a.mp3"),
            ],
            repostedBy: Author(handle: "bob@example.social", name: "Bob"), quoted: Self.quoted,
            inReplyToID: "0", displayStart: 3, contentWarning: "spoilers", isSensitive: true,
            card: LinkCard(
                url: "https://example.com/a", title: "A \"title\"", description: "d",
                imageURL: "https://example.com/a.png"),
            url: "https://example.social/@alice/2"
        )
        let decoded = try Post(jsonText: post.storedJSON)
        #expect(decoded == post)
        #expect(decoded.quoted == Self.quoted)
        #expect(decoded.quotedID == "1")
        #expect(decoded.url == "https://example.social/@alice/2")
    }

    @Test func aTweetStoredByAnEarlierReleaseIsATwitterPost() throws {
        let stored = """
            {"id":"1900","created":700000000,"user":{"screenName":"a","name":"A"},"text":"hi","mentions":[],"media":[],\
            "retweetedBy":{"screenName":"b","name":"B"}}
            """
        let post = try Post(jsonText: stored)
        #expect(post.network == .twitter)
        #expect(post.repostedBy?.handle == "b")
        #expect(post.url == "https://x.com/i/status/1900")
        #expect(post.key == PostKey(network: .twitter, id: "1900"))
        #expect(!post.isSensitive && post.contentWarning == nil && post.quoted == nil)
    }

    @Test func aLoopStoredByAnEarlierReleaseIsAGIFV() throws {
        let stored =
            #"""
            {"id":"1","created":0,"user":{"screenName":"a","name":"A"},"text":"x",\#
            "media":[{"url":"https://pbs.example/1.jpg","aspectRatio":1,"kind":"animated_gif"}]}
            """#
        let post = try Post(jsonText: stored)
        #expect(post.media.map(\.kind) == [.gifv])
        #expect(post.media.first?.playURL == nil && post.media.first?.alt == nil)
    }

    @Test func onlyHTTPSPlaysAndDescriptionsAreTrimmedAndCut() {
        #expect(MediaItem(url: "s", aspectRatio: 1, kind: .video, playURL: "http://example.com/v.mp4").playURL == nil)
        #expect(MediaItem(url: "s", aspectRatio: 1, kind: .video, playURL: "javascript:alert(1)").playURL == nil)
        #expect(MediaItem(url: "s", aspectRatio: 1, kind: .photo, playURL: "https://example.com/v.mp4").playURL == nil)
        #expect(MediaItem(url: "s", aspectRatio: 1, alt: "   ").alt == nil)
        let long = String(repeating: "é", count: MediaItem.altLimit + 10)
        #expect(MediaItem(url: "s", aspectRatio: 1, alt: long).alt?.count == MediaItem.altLimit)
    }

    @Test func equalIdsOnDifferentNetworksAreDifferentPosts() {
        let created = Date(timeIntervalSince1970: 0)
        let onX = Post(network: .twitter, id: "7", created: created, author: Self.alice, text: "x")
        let onMastodon = Post(network: .mastodon, id: "7", created: created, author: Self.alice, text: "x")
        #expect(onX.key != onMastodon.key)
        #expect(Set([onX.key, onMastodon.key]).count == 2)
    }

    /// A post's fields sit behind one shared reference: equality and hashing still go by the values.
    @Test func postsAreEqualByTheirValuesNotTheirStorage() {
        let created = Date(timeIntervalSince1970: 0)
        let one = Post(
            network: .mastodon, id: "7", created: created, author: Self.alice, text: "x", quoted: Self.quoted)
        let same = Post(
            network: .mastodon, id: "7", created: created, author: Self.alice, text: "x", quoted: Self.quoted)
        let other = Post(
            network: .mastodon, id: "7", created: created, author: Self.alice, text: "y", quoted: Self.quoted)
        #expect(one == same && one.hashValue == same.hashValue)
        #expect(one != other)
        #expect(Set([one, same, other]).count == 2)
    }
}
