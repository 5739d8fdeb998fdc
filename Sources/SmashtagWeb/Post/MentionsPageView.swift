import Posts

/// The Mentions page of a post: Images (its pictures, videos and sounds, playing in place), Hashtags, Users, URLs,
/// one item per row, and its Conversation (the thread); sections with no items are left out entirely.
struct MentionsPageView: Sendable {
    let chrome: Chrome
    /// The Images section: each medium with the viewer's address for a still.
    let media: [(view: MediaView, viewer: String?)]
    let sections: [Section]
    /// The author marked the media sensitive: pictures and videos stay blurred until the person taps to show them.
    let isSensitive: Bool

    struct Section: Sendable {
        let title: String
        let items: [Item]
    }

    struct Item: Sendable {
        let text: String
        let href: String?
        let isExternal: Bool
        let kind: String
    }

    init(_ post: Post, tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "@" + post.author.handle, tab: tab, back: back, isRoot: false)
        media = MediaView.all(of: post, boxWidth: 1000).filter { $0.isPlayable || $0.still != nil }.map { view in
            (view, view.still.map { SiteURL.image(tab, source: $0, alt: view.alt, back: here).path })
        }
        let all = [
            Section(
                title: "Hashtags",
                items: Self.mentions(post, .hashtag) { Self.search(MentionSearch.hashtag($0), tab: tab, back: here) }),
            Section(title: "Users", items: Self.users(post, tab: tab, back: here)),
            Section(title: "URLs", items: Self.links(post)),
            Self.seenOn(post),
            Section(
                title: "Conversation",
                items: [
                    Item(
                        text: "Show thread", href: SiteURL.thread(tab, post.key, back: here).path, isExternal: false,
                        kind: "thread")
                ]),
        ]
        sections = all.filter { !$0.items.isEmpty }
        isSensitive = post.isSensitive
    }

    /// Where the page's media play from: its policy allows these and no other.
    var mediaSources: [String] {
        Array(Set(media.compactMap(\.view.origin))).sorted()
    }

    /// Hashtags search for themselves (`#tag`); case-insensitive duplicates are listed once.
    private static func mentions(_ post: Post, _ kind: Mention.Kind, link: (String) -> String) -> [Item] {
        var seen = Set<String>()
        return post.mentions.filter { $0.kind == kind && seen.insert($0.keyword.lowercased()).inserted }.map {
            Item(text: $0.keyword, href: link($0.keyword), isExternal: false, kind: kind.rawValue)
        }
    }

    /// The poster first, then the users the post mentions; each searches `@user OR from:user`. A live index's
    /// author not resolved yet is a DID, which no search can name: shown, not linked, for the seconds that takes.
    private static func users(_ post: Post, tab: Tab, back: String) -> [Item] {
        let name = "@" + post.author.handle
        let poster = Item(
            text: name, href: post.author.isUnresolved ? nil : userSearch(name, tab: tab, back: back),
            isExternal: false, kind: "user")
        let mentioned = mentions(post, .user) { userSearch($0, tab: tab, back: back) }
        return [poster] + mentioned.filter { $0.text.lowercased() != poster.text.lowercased() }
    }

    private static func userSearch(_ user: String, tab: Tab, back: String) -> String {
        search(MentionSearch.user(user), tab: tab, back: back)
    }

    private static func search(_ query: String, tab: Tab, back: String) -> String {
        SiteURL.search(tab, query: query, back: back).path
    }

    /// The servers that gave the post, when several were asked (its own first), and its page on its own server.
    private static func seenOn(_ post: Post) -> Section {
        guard !post.seenOn.isEmpty else { return Section(title: "", items: []) }
        let servers = post.seenOn.map { Item(text: $0, href: nil, isExternal: false, kind: "server") }
        let home = WebLink.host(of: post.url).map { "Open it on \($0)" } ?? "Open it on its server"
        let own = SafeURL.link(post.url).map { [Item(text: home, href: $0, isExternal: true, kind: "url")] } ?? []
        return Section(title: "Seen on \(counted(post.seenOn.count, "server"))", items: servers + own)
    }

    /// Where the links really go, the previewed link last when the text does not hold it; only http(s) links are
    /// links at all.
    private static func links(_ post: Post) -> [Item] {
        var addresses = post.mentions.filter { $0.kind == .url }.map { $0.expandedURL ?? $0.keyword }
        if let card = post.card, !addresses.contains(card.url) { addresses.append(card.url) }
        return addresses.map { address in
            Item(text: address, href: SafeURL.link(address), isExternal: true, kind: "url")
        }
    }
}

extension MentionsPageView: PageView {
    /// Covers the blurred images that follow it until tapped; it works without JavaScript (the stylesheet blurs the
    /// list after a closed toggle).
    private static let sensitiveToggle: Markup = """
          <details class="sensitive"><summary><span class="show">Sensitive media — tap to show</span>\
        <span class="hide">Hide sensitive media</span></summary></details>

        """

    func writeBody(to html: inout HTMLWriter) {
        if !media.isEmpty {
            html.append("<section class=\"mentions\">\n  <h2>Images</h2>\n")
            if isSensitive { html.append(Self.sensitiveToggle) }
            html.append("  <ul>\n")
            for (view, viewer) in media { view.writeItem(viewer: viewer, to: &html) }
            html.append("  </ul>\n</section>\n")
        }
        for section in sections {
            html.append("<section class=\"mentions\">\n  <h2>\(section.title)</h2>\n  <ul>\n")
            for item in section.items { item.write(to: &html) }
            html.append("  </ul>\n</section>\n")
        }
    }
}

extension MentionsPageView.Item {
    private static let newTab: Markup = #" target="_blank" rel="noopener noreferrer""#

    /// A hashtag or user opening a search, a link opening in a new tab, or, for a link that is not http(s), its text
    /// only.
    func write(to html: inout HTMLWriter) {
        if let href {
            html.append(
                """
                    <li><a class=\"item\" href=\"\(url: href)\" \
                data-mention=\"\(kind)\"\(isExternal ? Self.newTab : .empty)>\(text)</a></li>\n
                """
            )
        } else {
            html.append("    <li><span class=\"item\" data-mention=\"\(kind)\">\(text)</span></li>\n")
        }
    }
}
