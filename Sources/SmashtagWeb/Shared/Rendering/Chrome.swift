import AppStore
import Team

/// What every page shows around its content: title, back and back-to-root controls, the tab bar.
struct Chrome: Sendable {
    let title: String
    /// Where the back control goes; nil on a tab's root.
    let backURL: String?
    /// The tab's root; nil on the root itself.
    let rootURL: String?
    let isSearchTab: Bool
    let isRecentsTab: Bool
    /// The sign-in and account pages, which belong to no tab.
    let isAccountTab: Bool
    /// The page's RSS twin, if it has one.
    let feedURL: String?
    let searchTabURL = SiteURL.searchRoot(query: nil).path
    let recentsTabURL = SiteURL.recents.path
    let stylesheetURL = StaticAssets.bundled?.stylesheet.path ?? "/app.css"
    let scriptURL = StaticAssets.bundled?.script.path ?? "/app.js"

    /// `tab`: nil for the account's pages.
    init(title: String, tab: Tab?, back: String? = nil, isRoot: Bool, feedURL: String? = nil) {
        self.feedURL = feedURL
        self.title = title
        self.backURL = isRoot ? nil : back ?? tab.map(Self.root)
        self.rootURL = isRoot ? nil : tab.map(Self.root)
        isSearchTab = tab == .search
        isRecentsTab = tab == .recents
        isAccountTab = tab == nil
    }

    private static func root(of tab: Tab) -> String {
        tab == .search ? SiteURL.searchRoot(query: nil).path : SiteURL.recents.path
    }
}

extension Chrome {
    private static let currentPage: Markup = #" aria-current="page""#

    /// From the doctype to the opening of `<main>`: head, title bar with back and back-to-root controls.
    func writeTop(to html: inout HTMLWriter) {
        html.append(
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
            <title>\(title) · Smashtag</title>
            <meta name="theme-color" content="#0b62c4">
            <meta name="apple-mobile-web-app-capable" content="yes">
            <link rel="manifest" href="/manifest.json">
            <link rel="icon" href="/icon-192.png">
            <link rel="apple-touch-icon" href="/icon-192.png">
            <link rel="stylesheet" href="\(url: stylesheetURL)">
            <script src="\(url: scriptURL)" defer></script>

            """)
        if let feedURL {
            html.append(
                """
                <link rel=\"alternate\" type=\"application/rss+xml\" title=\"\(title) · Smashtag\" \
                href=\"\(url: feedURL)\">\n
                """
            )
        }
        html.append(
            """
            </head>
            <body>
            <header class="bar">

            """)
        if let backURL {
            html.append("  <a class=\"nav back\" href=\"\(url: backURL)\" aria-label=\"Back\">‹ Back</a>\n")
        }
        html.append("  <h1>\(title)</h1>\n")
        if let rootURL {
            html.append(
                """
                  <a class="nav root" href="\(url: rootURL)" aria-label="Back to the start of this tab">\
                \(Icon.toStart)</a>

                """)
        }
        html.append("</header>\n<main>\n")
    }

    /// From the end of `<main>` to the end of the document: the tab bar.
    func writeBottom(to html: inout HTMLWriter) {
        html.append(
            """
            </main>
            <nav class="tabs" aria-label="Tabs">
              <a href="\(url: searchTabURL)"\(isSearchTab ? Self.currentPage : .empty)>\(Icon.search) Search</a>
              <a href="\(url: recentsTabURL)"\(isRecentsTab ? Self.currentPage : .empty)>\(Icon.recents) Recents</a>

            """)
        writeAccountTab(to: &html)
        html.append("</nav>\n</body>\n</html>\n")
    }

    /// Where people have been added, the third tab: the account of whoever is signed in, or signing in. The owner of a
    /// Smashtag with no people has nothing to sign in to, and no tab.
    private func writeAccountTab(to html: inout HTMLWriter) {
        let caller = Viewing.caller
        guard caller.kind != .owner else { return }
        let current = isAccountTab ? Self.currentPage : .empty
        if caller.isSignedOut {
            html.append("  <a href=\"\(url: SiteURL.signIn(next: nil).path)\"\(current)>\(Icon.person) Sign in</a>\n")
        } else {
            html.append("  <a href=\"\(url: SiteURL.account.path)\"\(current)>\(Icon.person) Account</a>\n")
        }
    }
}
