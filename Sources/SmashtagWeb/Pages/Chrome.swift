/// What every page shows around its content: title, back and back-to-root controls, the tab bar.
struct Chrome: Sendable {
    let title: String
    /// Where the back control goes; nil on a tab's root.
    let backURL: String?
    /// The tab's root; nil on the root itself.
    let rootURL: String?
    let isSearchTab: Bool
    let isRecentsTab: Bool
    let searchTabURL = SiteURL.searchRoot(query: nil).path
    let recentsTabURL = SiteURL.recents.path
    let stylesheetURL = StaticAssets.bundled?.stylesheet.path ?? "/app.css"
    let scriptURL = StaticAssets.bundled?.script.path ?? "/app.js"

    init(title: String, tab: Tab, back: String? = nil, isRoot: Bool) {
        self.title = title
        self.backURL = isRoot ? nil : back ?? Self.root(of: tab)
        self.rootURL = isRoot ? nil : Self.root(of: tab)
        isSearchTab = tab == .search
        isRecentsTab = tab == .recents
    }

    private static func root(of tab: Tab) -> String {
        tab == .search ? SiteURL.searchRoot(query: nil).path : SiteURL.recents.path
    }
}

/// The templates, by name, checked at start-up.
enum Page {
    static let search = "search"
    static let tweet = "tweet"
    static let recents = "recents"
    static let error = "error"
    static let popularity = "popularity"
    static let viewer = "viewer"
    static let images = "images"
    static let templateNames = [search, tweet, recents, error, popularity, viewer, images, "page", "tweet-row"]
}
