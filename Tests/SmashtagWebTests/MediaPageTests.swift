import Foundation
import HTTPTypes
import Hummingbird
import Posts
import Testing

@testable import SmashtagWeb

/// Every kind of media as the pages show it: videos and loops playing in place with their still as poster, Bluesky's
/// playlists where the browser plays HLS, sounds, descriptions as `alt` and behind an "ALT" badge, and a page's
/// policy letting media load only from where they play.
@Suite struct MediaPageTests {
    static let ana = Author(handle: "ana@home.example", name: "Ana")
    static let media = [
        MediaItem(
            url: "https://home.example/v.png", aspectRatio: 16.0 / 9, kind: .video,
            playURL: "https://files.example/v.mp4",
            alt: "A cat <b>chasing</b> a \"laser\"", duration: 88.654),
        MediaItem(
            url: "https://home.example/g.png", aspectRatio: 2, kind: .gifv, playURL: "https://files.example/g.mp4"),
        MediaItem(url: "", aspectRatio: 0, kind: .audio, playURL: "https://sounds.example:8443/a.mp3", alt: "Birdsong"),
        MediaItem(
            url: "https://home.example/h.png", aspectRatio: 1, kind: .video, playURL: "http://insecure.example/h.mp4"),
        MediaItem(url: "https://home.example/p.png", aspectRatio: 1.5, alt: "A map"),
    ]
    static let post = Post(
        network: .mastodon, id: "7", created: Date(timeIntervalSince1970: 1_785_592_555), author: ana,
        text: "clips", media: media, url: "https://home.example/@ana/7")
    static let bluesky = Post(
        network: .bluesky, id: "at://did:plc:w/app.bsky.feed.post/3k", created: .now,
        author: Author(handle: "w.bsky.social", name: "W"),
        text: "waves",
        media: [
            MediaItem(
                url: "https://cdn.example/t.jpg", aspectRatio: 16.0 / 9, kind: .video,
                playURL: "https://video.bsky.app/watch/did%3Aplc%3Aw/bafy/playlist.m3u8", alt: "Waves")
        ],
        url: "https://bsky.app/profile/w.bsky.social/post/3k")

    private func page(_ view: some PageView) -> String {
        String(decoding: view.rendered().bytes, as: UTF8.self)
    }

    @Test func videosAndLoopsPlayInPlaceWithTheirStillAsPosterAndTheirDescriptionAsName() {
        let html = page(MentionsPageView(Self.post, tab: .search, back: nil, here: "/here"))
        #expect(
            html.contains(
                #"""
                <video controls playsinline preload="none" poster="https://home.example/v.png" width="1000" \#
                height="563" src="https://files.example/v.mp4" aria-label="A cat &lt;b&gt;chasing&lt;/b&gt; a \#
                &quot;laser&quot;"></video>
                """#
            ))
        #expect(html.contains(#"<span class="badge duration" aria-hidden="true">1:29</span>"#))
        #expect(
            html.contains(
                #"""
                <details class="alt"><summary title="Description"><span>ALT</span></summary><p>A cat \#
                &lt;b&gt;chasing&lt;/b&gt; a &quot;laser&quot;</p></details>
                """#
            ))
        #expect(
            html.contains(
                #"""
                <video controls playsinline preload="none" loop muted data-autoplay \#
                poster="https://home.example/g.png" width="1000" height="500" src="https://files.example/g.mp4" \#
                aria-label="GIF 2 of @ana@home.example&#39;s post"></video>
                """#
            ))
        #expect(
            html.contains(
                #"""
                <audio controls preload="none" src="https://sounds.example:8443/a.mp3" \#
                aria-label="Birdsong"></audio>
                """#
            ))
    }

    @Test func mediaWithoutAnHTTPSAddressToPlayAreStillsOpeningTheViewer() {
        let html = page(MentionsPageView(Self.post, tab: .search, back: nil, here: "/here"))
        #expect(!html.contains("insecure.example"))
        #expect(html.contains(#"<img src="https://home.example/h.png" alt="Image 4 of @ana@home.example&#39;s post""#))
        #expect(
            html.contains(
                #"""
                /search/image?src=https%3A%2F%2Fhome.example%2Fp.png&amp;alt=A%20map&amp;back=%2Fhere"><img \#
                src="https://home.example/p.png" alt="A map"
                """#
            ))
    }

    @Test func aPagesPolicyLetsMediaPlayOnlyFromTheirOwnOrigins() {
        let view = MentionsPageView(Self.post, tab: .search, back: nil, here: "/here")
        #expect(view.mediaSources == ["https://files.example", "https://sounds.example:8443"])
        let policy = HTML(view).headers[.contentSecurityPolicy] ?? ""
        #expect(policy.contains("media-src 'self' https://files.example https://sounds.example:8443;"))
        #expect(SecurityHeaders<BasicRequestContext>.policy.contains("media-src 'self';"))
    }

    @Test func aBlueskyPlaylistIsItsStillLinkingToThePostUntilTheBrowserCanPlayHLS() {
        let html = page(MentionsPageView(Self.bluesky, tab: .search, back: nil, here: "/here"))
        #expect(
            html.contains(
                #"""
                <a class="playlist" href="https://bsky.app/profile/w.bsky.social/post/3k" target="_blank" \#
                rel="noopener noreferrer" aria-label="Play Waves on the post's network" data-name="Waves" \#
                data-hls="https://video.bsky.app/watch/did%3Aplc%3Aw/bafy/playlist.m3u8" \#
                data-poster="https://cdn.example/t.jpg"><img src="https://cdn.example/t.jpg" alt="
                """#
            ))
        #expect(html.contains(#"<span class="badge play" aria-hidden="true">▶</span></a>"#))
    }

    @Test func rowsAndTheGridSayWhatPlaysAndForHowLong() {
        var html = HTMLWriter(capacity: 4096)
        PostRow(Self.post, links: PostLinks(tab: .search, back: nil)).write(to: &html)
        let row = String(decoding: html.bytes, as: UTF8.self)
        #expect(
            row.contains(
                #"<p class="dim small media-note">▣ 2 images · <span class="play-note">▶ 3 videos 1:29</span></p>"#))
        let grid = page(ImagesPageView(query: "#clips", posts: [Self.post], tab: .search, back: nil, here: "/here"))
        #expect(
            grid.contains(
                #"""
                alt="A cat &lt;b&gt;chasing&lt;/b&gt; a &quot;laser&quot;" width="600" height="338" \#
                loading="lazy"><span class="badge play" aria-hidden="true">▶ 1:29</span></a>
                """#
            ))
        #expect(
            grid.components(separatedBy: "<a class=\"cell\"").count == 5,
            "every medium with a still; the sound has none")
    }

    @Test func durationsReadAsClocks() {
        #expect(MediaView.clock(1.11) == "0:01")
        #expect(MediaView.clock(88.654) == "1:29")
        #expect(MediaView.clock(3_725) == "1:02:05")
    }
}
