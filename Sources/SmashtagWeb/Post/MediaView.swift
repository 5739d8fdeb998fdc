import Posts

/// A post's picture, video, loop or sound as the pages show it: pre-formatted, with a name for people who cannot see
/// it (the poster's description, else "Video 2 of @ana's post"), so no image or link is left unnamed.
///
/// How it plays, as its network plays it:
/// - an MP4 (Mastodon video and `gifv`, X video and GIF) in `<video controls playsinline preload="none">` with the
///   still as poster at the medium's aspect ratio; a loop also `loop muted`, started by `app.js` unless the person
///   asked for reduced motion;
/// - Bluesky's HLS playlist: the still with a play badge linking to the post on bsky.app; `app.js` turns it into a
///   `<video>` where the browser plays HLS itself (Safari). No HLS player is written here;
/// - audio in `<audio controls>`;
/// - anything without an `https` address to play, as a still.
struct MediaView: Sendable {
    enum Player: Sendable {
        /// A still only: a photo, or media nothing can play here.
        case still
        case video(loops: Bool)
        /// An HLS playlist, played only where the browser plays HLS itself; elsewhere `elsewhere` (the post on its
        /// network) plays it.
        case playlist(elsewhere: String?)
        case audio
    }

    /// The still, when it is an `http(s)` address or a path on this site.
    let still: String?
    let playURL: String?
    let player: Player
    let box: ImageBox
    /// The accessible name: the description, else what and whose it is.
    let name: String
    /// The poster's description, shown behind the "ALT" badge.
    let alt: String?
    /// "1:28"; nil when the network does not say.
    let duration: String?
    /// The origin a page lets media load from (`https://host[:port]`), for its Content-Security-Policy.
    let origin: String?

    init(_ item: MediaItem, number: Int, of post: Post, boxWidth: Int) {
        still = item.url.isEmpty ? nil : SafeURL.image(item.url)
        playURL = item.playURL
        player = Self.player(item, post: post)
        box = ImageBox(aspectRatio: item.aspectRatio, width: boxWidth)
        alt = item.alt
        name = item.alt ?? "\(Self.noun(item, player: player)) \(number) of @\(post.author.handle)'s post"
        duration = item.duration.map(Self.clock)
        origin = item.playURL.flatMap(Self.origin)
    }

    /// Every medium of a post, numbered from 1 as people count them.
    static func all(of post: Post, boxWidth: Int) -> [MediaView] {
        post.media.enumerated().map { MediaView($1, number: $0 + 1, of: post, boxWidth: boxWidth) }
    }

    var isPlayable: Bool {
        if case .still = player { return false }
        return true
    }

    private static func player(_ item: MediaItem, post: Post) -> Player {
        guard let play = item.playURL else { return .still }
        if item.kind == .audio { return .audio }
        if play.lowercased().split(separator: "?").first?.hasSuffix(".m3u8") == true {
            return .playlist(elsewhere: SafeURL.link(post.url))
        }
        return .video(loops: item.kind == .gifv)
    }

    private static func noun(_ item: MediaItem, player: Player) -> String {
        switch (item.kind, player) {
        case (_, .still), (.photo, _): "Image"
        case (.gifv, _): "GIF"
        case (.audio, _): "Audio"
        case (.video, _): "Video"
        }
    }

    /// `m:ss`, or `h:mm:ss` past an hour.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let secondsText = rest < 10 ? "0\(rest)" : "\(rest)"
        guard hours > 0 else { return "\(minutes):\(secondsText)" }
        return "\(hours):\(minutes < 10 ? "0\(minutes)" : "\(minutes)"):\(secondsText)"
    }

    /// `https://host[:port]` of a play address (`MediaItem` keeps only `https` ones): the least a page's policy must
    /// allow.
    private static func origin(of url: String) -> String? {
        let rest = url.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"),
            authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return nil }
        return "https://" + authority.lowercased()
    }
}

/// A row's or a cell's short word on its media: "▣ 2 images", "▶ 1 video 1:28".
struct MediaNote: Sendable {
    let stills: String?
    let playable: String?

    /// Made from the media themselves, not their `MediaView`s: every row of a page has one.
    init(_ media: [MediaItem]) {
        guard !media.isEmpty else {
            (stills, playable) = (nil, nil)
            return
        }
        let stillCount = media.count { !$0.isPlayable && !$0.url.isEmpty }
        stills = stillCount == 0 ? nil : stillCount == 1 ? "1 image" : "\(stillCount) images"
        let playable = media.filter(\.isPlayable)
        guard let first = playable.first else {
            self.playable = nil
            return
        }
        let word =
            switch first.kind {
            case .gifv: "GIF"
            case .audio: "audio"
            default: "video"
            }
        let counted = playable.count == 1 ? "1 \(word)" : "\(playable.count) \(word == "audio" ? "audio" : word + "s")"
        self.playable = first.duration.map { "\(counted) \(MediaView.clock($0))" } ?? counted
    }

    var isEmpty: Bool { stills == nil && playable == nil }

    func write(to html: inout HTMLWriter) {
        guard !isEmpty else { return }
        html.append("<p class=\"dim small media-note\">")
        if let stills { html.append("▣ \(stills)") }
        if stills != nil, playable != nil { html.append(" · ") }
        if let playable { html.append("<span class=\"play-note\">▶ \(playable)</span>") }
        html.append("</p>\n")
    }
}

extension MediaView {
    /// The "ALT" badge: the description, revealed on tap (a `<details>`, so it works without JavaScript).
    func writeAltBadge(to html: inout HTMLWriter) {
        guard let alt else { return }
        html.append(
            "<details class=\"alt\"><summary title=\"Description\"><span>ALT</span></summary><p>\(alt)</p></details>")
    }

    /// The medium on the Mentions page: a picture opening the viewer, or what plays it in place.
    func writeItem(viewer: String?, to html: inout HTMLWriter) {
        switch player {
        case .still:
            guard let still else { return }
            html.append(
                """
                    <li class="image"><a href="\(url: viewer ?? still)"><img src="\(url: still)" alt="\(name)"\
                \(box.attributes) loading="lazy"></a>
                """
            )
        case .video(let loops):
            let loop: Markup = loops ? " loop muted data-autoplay" : ""
            html.append(
                """
                    <li class="image media"><video controls playsinline preload="none"\(loop)\(poster)\
                \(box.attributes) src="\(url: playable)" aria-label="\(name)"></video>
                """
            )
        case .playlist(let elsewhere):
            html.append("    <li class=\"image media\">")
            writePlaylist(elsewhere: elsewhere, to: &html)
        case .audio:
            html.append(
                """
                    <li class="audio media">\(still.map(picture) ?? .empty)<audio controls preload="none" \
                src="\(url: playable)" aria-label="\(name)"></audio>
                """
            )
        }
        if let duration, isPlayable {
            html.append("<span class=\"badge duration\" aria-hidden=\"true\">\(duration)</span>")
        }
        writeAltBadge(to: &html)
        html.append("</li>\n")
    }

    /// What plays, as an address (empty for none).
    private var playable: String { playURL ?? "" }

    /// The still as a picture beside a player, which names it.
    private func picture(_ still: String) -> Markup {
        "<img src=\"\(url: still)\" alt=\"\"\(box.attributes) loading=\"lazy\">"
    }

    private var poster: Markup {
        guard let still else { return .empty }
        return " poster=\"\(url: still)\""
    }

    /// The poster for the `<video>` that `app.js` makes of a playlist.
    private var dataPoster: Markup {
        guard let still else { return .empty }
        return " data-poster=\"\(url: still)\""
    }

    /// The still with a play badge, linking to the post on its network; `data-hls` lets `app.js` play it here where
    /// the browser can.
    private func writePlaylist(elsewhere: String?, to html: inout HTMLWriter) {
        let label: Markup = "Play \(name) on the post's network"
        let picture = still.map(picture) ?? "<span class=\"no-still\">\(name)</span>"
        if let elsewhere {
            html.append(
                """
                <a class="playlist" href="\(url: elsewhere)" target="_blank" rel="noopener noreferrer" \
                aria-label="\(label)" data-name="\(name)" data-hls="\(url: playable)"\(dataPoster)>\(picture)\
                <span class="badge play" aria-hidden="true">▶</span></a>
                """
            )
        } else {
            html.append(
                """
                <span class="playlist" role="img" aria-label="\(name)" data-hls="\(url: playable)"\(dataPoster)>\
                \(picture)<span class="badge play" aria-hidden="true">▶</span></span>
                """
            )
        }
    }
}
