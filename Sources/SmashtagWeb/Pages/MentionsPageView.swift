import Posts
import Twitter

/// The Mentions page of a tweet: Images, Hashtags, Users, URLs, one item per row; sections with no items are
/// left out entirely.
struct MentionsPageView: Sendable {
    let chrome: Chrome
    let sections: [Section]
    /// The author marked the media sensitive: the images stay blurred until the person taps to show them.
    let isSensitive: Bool

    struct Section: Sendable {
        let title: String
        let isImages: Bool
        let items: [Item]
    }

    struct Item: Sendable {
        let text: String
        let href: String?
        let isExternal: Bool
        let kind: String
        let imageURL: String?
        /// The image's proportions, so the browser reserves the row's height before the image loads.
        let box: ImageBox
    }

    init(_ tweet: Post, tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "@" + tweet.user.screenName, tab: tab, back: back, isRoot: false)
        let all = [
            Section(title: "Images", isImages: true, items: tweet.media.compactMap { Self.image($0, tab: tab, back: here) }),
            Section(title: "Hashtags", isImages: false, items: Self.mentions(tweet, .hashtag) { Self.search(MentionSearch.hashtag($0), tab: tab, back: here) }),
            Section(title: "Users", isImages: false, items: Self.users(tweet, tab: tab, back: here)),
            Section(title: "URLs", isImages: false, items: Self.links(tweet)),
        ]
        sections = all.filter { !$0.items.isEmpty }
        isSensitive = tweet.isSensitive
    }

    /// Tapping an image opens the viewer.
    private static func image(_ item: MediaItem, tab: Tab, back: String) -> Item? {
        guard let url = SafeURL.image(item.url) else { return nil }
        let box = ImageBox(aspectRatio: item.aspectRatio, width: 1000)
        return Item(text: "Image", href: SiteURL.image(tab, source: url, back: back).path, isExternal: false, kind: "image", imageURL: url, box: box)
    }

    /// Hashtags search for themselves (`#tag`); case-insensitive duplicates are listed once.
    private static func mentions(_ tweet: Post, _ kind: Mention.Kind, link: (String) -> String) -> [Item] {
        var seen = Set<String>()
        return tweet.mentions.filter { $0.kind == kind && seen.insert($0.keyword.lowercased()).inserted }.map {
            Item(text: $0.keyword, href: link($0.keyword), isExternal: false, kind: kind.rawValue, imageURL: nil, box: .none)
        }
    }

    /// The poster first, then the users the tweet mentions; each searches `@user OR from:user`. A live index's
    /// author not resolved yet is a DID, which no search can name: shown, not linked, for the seconds that takes.
    private static func users(_ tweet: Post, tab: Tab, back: String) -> [Item] {
        let name = "@" + tweet.user.screenName
        let poster = Item(text: name, href: tweet.user.isUnresolved ? nil : userSearch(name, tab: tab, back: back),
                          isExternal: false, kind: "user", imageURL: nil, box: .none)
        let mentioned = mentions(tweet, .user) { userSearch($0, tab: tab, back: back) }
        return [poster] + mentioned.filter { $0.text.lowercased() != poster.text.lowercased() }
    }

    private static func userSearch(_ user: String, tab: Tab, back: String) -> String {
        search(MentionSearch.user(user), tab: tab, back: back)
    }

    private static func search(_ query: String, tab: Tab, back: String) -> String {
        SiteURL.search(tab, query: query, back: back).path
    }

    /// Where the links really go, the previewed link last when the text does not hold it; only http(s) links are
    /// links at all.
    private static func links(_ tweet: Post) -> [Item] {
        var addresses = tweet.mentions.filter { $0.kind == .url }.map { $0.expandedURL ?? $0.keyword }
        if let card = tweet.card, !addresses.contains(card.url) { addresses.append(card.url) }
        return addresses.map { address in
            Item(text: address, href: SafeURL.link(address), isExternal: true, kind: "url", imageURL: nil, box: .none)
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
        for section in sections {
            html.append("<section class=\"mentions\">\n  <h2>\(section.title)</h2>\n")
            if section.isImages && isSensitive { html.append(Self.sensitiveToggle) }
            html.append("  <ul>\n")
            for item in section.items { item.write(to: &html) }
            html.append("  </ul>\n</section>\n")
        }
    }
}

extension MentionsPageView.Item {
    private static let newTab: Markup = #" target="_blank" rel="noopener noreferrer""#

    /// An image opening the viewer, a hashtag or user opening a search, a link opening in a new tab, or, for a link
    /// that is not http(s), its text only.
    func write(to html: inout HTMLWriter) {
        if let imageURL {
            html.append("""
                    <li class="image"><a href="\(url: href ?? "")"><img src="\(url: imageURL)" alt=""\(box.attributes) \
                loading="lazy"></a></li>

                """)
        } else if let href {
            html.append("    <li><a class=\"item\" href=\"\(url: href)\" data-mention=\"\(kind)\"\(isExternal ? Self.newTab : .empty)>\(text)</a></li>\n")
        } else {
            html.append("    <li><span class=\"item\" data-mention=\"\(kind)\">\(text)</span></li>\n")
        }
    }
}
