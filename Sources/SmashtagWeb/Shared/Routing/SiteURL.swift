import AppStore
import Exports
import Foundation
import Posts

/// The tabs: each keeps its own stack of pages, so a page pushed from Recents stays in Recents.
enum Tab: String, Sendable, CaseIterable {
    case search
    case recents
}

/// Every address of the site, built in one place so that a link cannot point nowhere.
enum SiteURL: Sendable {
    case searchRoot(query: String?)
    case search(Tab, query: String, back: String?)
    /// `Tab?`: nil for the Search tab's root page.
    case newer(Tab?, query: String, since: String)
    case older(Tab?, query: String, before: String, back: String?)
    case post(Tab, PostKey, back: String?)
    /// `after`: the direct reply the previous page of replies ended with.
    case thread(Tab, PostKey, after: String? = nil, back: String?)
    case recents
    case deleteRecent
    case track
    case untrack
    case popularity(Tab, term: String, window: TimeWindow = .all)
    /// `rows`: the tab whose Popularity page asks, for events that carry its rendered rows.
    case popularityEvents(term: String, rows: Tab? = nil, window: TimeWindow = .all)
    /// `format`: nil for JSON.
    case apiPopularity(term: String, window: TimeWindow, format: String?)
    case network(Tab, term: String, options: NetworkOptions, back: String?)
    case apiNetwork(term: String, options: NetworkOptions, format: NetworkFormat)
    /// `end`: the last bucket the chart shows; nil for the one of the term's newest post.
    case trend(Tab, term: String, mention: String, bucket: TrendBucket?, end: Date? = nil, back: String?)
    case apiTrend(term: String, mention: String, bucket: TrendBucket?)
    case volume(Tab, term: String, back: String?)
    case apiVolume(term: String)
    /// `sources`: the sources chosen, when not every one the site offers.
    case feed(query: String, sources: [String]?)
    /// `alt`: the poster's description of the picture, which the viewer shows as its `alt`.
    case image(Tab, source: String, alt: String? = nil, back: String?)
    /// The images of the results from the time of `newest` down to that of `oldest`.
    case images(Tab, query: String, newest: Date, oldest: Date, back: String?)
    /// One post as a list, from the images grid.
    case onePost(Tab, query: String, key: PostKey, back: String?)
    /// `next`: where to go once signed in, a path on this site only.
    case signIn(next: String?)
    case signOut
    case account
    case audit(since: String?)

    var path: String {
        switch self {
        case .searchRoot(let query): Route.searchRoot.path() + Self.query(["q": query])
        case .search(let tab, let query, let back): Route.search(tab).path() + Self.query(["q": query, "back": back])
        case .newer(let tab, let query, let since): Self.searchPath(tab) + Self.query(["q": query, "since": since])
        case .older(let tab, let query, let before, let back):
            Self.searchPath(tab) + Self.query(["q": query, "before": before, "back": back])
        case .post(let tab, let key, let back): Route.post(tab).path(key) + Self.query(["back": back])
        case .thread(let tab, let key, let after, let back):
            Route.thread(tab).path(key) + Self.query(["after": after, "back": back])
        case .recents: Route.recents.path()
        case .deleteRecent: Route.deleteRecent.path()
        case .track: Route.track.path()
        case .untrack: Route.untrack.path()
        case .popularity(let tab, let term, let window):
            Route.popularity(tab).path() + Self.query(["term": term, "window": Self.window(window)])
        case .popularityEvents(let term, let rows, let window):
            Route.apiPopularityEvents.path()
                + Self.query(["term": term, "rows": rows?.rawValue, "window": Self.window(window)])
        case .apiPopularity(let term, let window, let format):
            Route.apiPopularity.path() + Self.query(["term": term, "window": Self.window(window), "format": format])
        case .network(let tab, let term, let options, let back):
            Route.network(tab).path() + Self.query(Self.network(term, options) + [("back", back)])
        case .apiNetwork(let term, let options, let format):
            Route.apiNetwork.path()
                + Self.query(
                    Self.network(term, options) + [
                        ("by", options.timeline?.rawValue), ("format", format == .json ? nil : format.rawValue),
                    ])
        case .trend(let tab, let term, let mention, let bucket, let end, let back):
            Route.trend(tab).path()
                + Self.query([
                    "term": term, "mention": mention, "bucket": bucket?.rawValue,
                    "end": end.map { String($0.millisecondsSince1970) }, "back": back,
                ])
        case .apiTrend(let term, let mention, let bucket):
            Route.apiTrend.path() + Self.query(["term": term, "mention": mention, "bucket": bucket?.rawValue])
        case .volume(let tab, let term, let back): Route.volume(tab).path() + Self.query(["term": term, "back": back])
        case .apiVolume(let term): Route.apiVolume.path() + Self.query(["term": term])
        case .feed(let query, let sources):
            Route.searchFeed.path() + Self.query(["q": query, "source": sources?.joined(separator: ",")])
        case .image(let tab, let source, let alt, let back):
            Route.image(tab).path() + Self.query(["src": source, "alt": alt, "back": back])
        case .images(let tab, let query, let newest, let oldest, let back):
            Route.images(tab).path()
                + Self.query([
                    "q": query, "newest": String(newest.millisecondsSince1970),
                    "oldest": String(oldest.millisecondsSince1970), "back": back,
                ])
        case .onePost(let tab, let query, let key, let back):
            Route.search(tab).path() + Self.query(["q": query, "only": key.description, "back": back])
        case .signIn(let next): Route.signIn.path() + Self.query(["next": Self.safeBack(next)])
        case .signOut: Route.signOut.path()
        case .account: Route.account.path()
        case .audit(let since): Route.audit.path() + Self.query(["since": since])
        }
    }

    /// A window's parameter: left out for all time.
    private static func window(_ window: TimeWindow) -> String? {
        window == .all ? nil : window.rawValue
    }

    /// A network's parameters, defaults left out (the page's own default size is kept, as it differs from exports').
    private static func network(_ term: String, _ options: NetworkOptions) -> [(String, String?)] {
        [
            ("term", term), ("kind", options.kind == .mentions ? nil : options.kind.rawValue),
            ("window", window(options.window)), ("top", String(options.top)),
            ("min", options.minimumWeight == 1 ? nil : String(options.minimumWeight)),
            ("exclude", options.leavesOutTermHashtags ? "term" : nil),
        ]
    }

    private static func searchPath(_ tab: Tab?) -> String {
        (tab.map { Route.search($0) } ?? Route.searchRoot).path()
    }

    /// Parameters in a fixed order, values percent-encoded, absent ones left out.
    fileprivate static func query(_ parameters: KeyValuePairs<String, String?>) -> String {
        query(parameters.map { ($0.key, $0.value) })
    }

    private static func query(_ parameters: [(String, String?)]) -> String {
        let pairs = parameters.compactMap { key, value in value.map { "\(key)=\(URLQuery.encode($0))" } }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }

    /// A `back` parameter is only ever a path on this site: anything else (another host, a scheme) is dropped. It is
    /// judged as a browser will read it (the WHATWG URL standard): a browser strips leading and trailing controls and
    /// spaces, removes every tab and newline, and reads `\` as `/`, so `/<tab>/evil.example` and `/\evil.example` both
    /// lead to another host. The site's own links never carry a control, a space or a backslash (they are
    /// percent-encoded), so a value with one is refused, not cleaned.
    static func safeBack(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/"), !value.hasPrefix("//"),
            !value.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" })
        else { return nil }
        return value
    }
}

/// `SiteURL.post(tab, key, back:)` for every row of a page: the `back` parameter, the same for all of them, is
/// encoded once.
struct PostLinks: Sendable {
    private let post: PostPath
    private let thread: PostPath
    private let backQuery: String

    init(tab: Tab, back: String?) {
        post = PostPath(.post(tab))
        thread = PostPath(.thread(tab))
        backQuery = SiteURL.query(["back": back])
    }

    func url(_ key: PostKey) -> String {
        post.path(key) + backQuery
    }

    /// The post's thread.
    func threadURL(_ key: PostKey) -> String {
        thread.path(key) + backQuery
    }
}

/// What tapping a mention searches for: a hashtag itself (`#tag`, not `tag`), a user's mentions and posts.
enum MentionSearch {
    static func hashtag(_ tag: String) -> String { tag }
    static func user(_ user: String) -> String { "\(user) OR from:\(user.dropFirst())" }
}

/// An image's proportions as `width`/`height` attributes, so the browser reserves its height before it loads; none
/// when the source did not say, so the box takes the image's own proportions when it loads rather than a wrong guess.
/// (Attributes, not inline styles, which the content security policy forbids.)
struct ImageBox: Sendable {
    let attributes: Markup

    init(aspectRatio: Double, width: Int) {
        guard aspectRatio.isFinite, aspectRatio > 0 else {
            attributes = .empty
            return
        }
        let height = max(1, Int((Double(width) / aspectRatio).rounded()))
        attributes = " width=\"\(width)\" height=\"\(height)\""
    }

    private init() { attributes = .empty }

    /// For what is not an image.
    static let none = ImageBox()
}
