import AppStore
import Foundation
import LiveIndex
import Posts

/// The Search page: the field and the source toggles, the legend, the posts of every chosen source newest first
/// (with a sentence for each source that failed), and the controls for newer and older posts.
struct SearchPageView: Sendable {
    let chrome: Chrome
    let query: String
    let formAction: String
    let tab: String
    let back: String?
    /// One per source the site offers; none when it offers one.
    let toggles: [SourceToggle]
    let rows: [PostRow]
    let isEmpty: Bool
    let newerURL: String?
    let olderURL: String?
    /// Shown instead of posts when the search failed (one sentence per source when every source failed).
    let errors: [String]
    /// The sources that failed while others answered: shown above the posts.
    let failures: [String]
    let retryURL: String
    /// This page holds only posts newer than an earlier page (a "Newer" fetch).
    let isNewerOnly: Bool
    /// The images of the posts shown, as a grid; nil when they have none.
    let imagesURL: String?
    /// How the live index filling the corpus is doing, when one is (`serve --ingest bluesky`).
    var liveIndex: LiveIndexNote?
    /// Another site's page opened this search: it was not recorded (`RequestSite.mayRecord`), which the page says.
    var isUnrecorded = false
    /// How many of the page's posts were left out because their authors show them only to people signed in, and
    /// the caller is not (`Caller.shown`).
    var signInOnly = 0

    struct Place {
        let tab: Tab
        let back: String?
        let isRoot: Bool
        let here: String
    }

    init(
        query: String, place: Place, sources: PageSources, outcome: Result<MergedPage, SearchFailure>, isNewerOnly: Bool
    ) {
        let tab = place.tab
        chrome = Chrome(
            title: query, tab: tab, back: place.back, isRoot: place.isRoot,
            feedURL: sources.chosen.sources.isEmpty
                ? nil : SiteURL.feed(query: query, sources: sources.namesIfChosen).path)
        self.query = query
        formAction = place.isRoot ? SiteURL.searchRoot(query: nil).path : "/\(tab.rawValue)/search"
        self.tab = tab.rawValue
        back = place.isRoot ? nil : place.back
        toggles = sources.toggles
        retryURL = place.here
        self.isNewerOnly = isNewerOnly
        switch outcome {
        case .success(let page):
            let links = PostLinks(tab: tab, back: place.here)
            rows = page.posts.map { PostRow($0, links: links) }
            isEmpty = page.posts.isEmpty
            let pageTab = place.isRoot ? nil : tab
            let continuation = PageContinuation(page, sources: sources)
            newerURL = continuation.newer.map { SiteURL.newer(pageTab, query: query, since: $0).path }
            olderURL = continuation.older.map {
                SiteURL.older(pageTab, query: query, before: $0, back: place.back).path
            }
            (errors, failures) = ([], page.failures.map(\.message))
            imagesURL = Self.imagesURL(of: page.posts, query: query, tab: tab, back: place.here)
        case .failure(let failure):
            (rows, isEmpty, newerURL, olderURL, errors, failures, imagesURL) = (
                [], false, nil, nil, failure.messages, [], nil
            )
        }
    }

    private static func imagesURL(of posts: [Post], query: String, tab: Tab, back: String) -> String? {
        guard posts.contains(where: { !$0.media.isEmpty }), let newest = posts.first, let oldest = posts.last else {
            return nil
        }
        return SiteURL.images(tab, query: query, newest: newest.created, oldest: oldest.created, back: back).path
    }
}

/// The sources a page offers and which of them this search chose.
struct PageSources: Sendable {
    let offered: SourceSet
    let chosen: SourceSet

    var toggles: [SourceToggle] {
        guard offered.sources.count > 1 else { return [] }
        let on = Set(chosen.names)
        return offered.sources.map { SourceToggle(name: $0.name, title: $0.title, isOn: on.contains($0.name)) }
    }

    /// The chosen sources' names when they are not every source offered (a link then has to say them); else nil.
    var namesIfChosen: [String]? {
        chosen.names == offered.names ? nil : chosen.names
    }

    /// Each source's position the page's cursors give, in the site's order; sources without one are left out.
    func positions(
        _ page: MergedPage, _ position: (SourceCursor) -> SearchRequest.Position?
    )
        -> [(String, SearchRequest.Position)]
    {
        offered.names.compactMap { name in page.cursors[name].flatMap(position).map { (name, $0) } }
    }
}

/// Where a page of results goes on, as the Newer and Older links and the JSON twin carry it: each source's position
/// after the newest post shown and before the oldest (`corpus:123,mastodon:`); nil when no source goes on that way.
struct PageContinuation: Sendable {
    let newer: String?
    let older: String?

    init(_ page: MergedPage, sources: PageSources) {
        let newer = sources.positions(page) { $0.newer.position }
        let older = sources.positions(page) { $0.older?.position }
        self.newer = newer.isEmpty ? nil : PositionList.encode(newer)
        self.older = older.isEmpty ? nil : PositionList.encode(older)
    }
}

/// The line about a live index: what it holds and how far behind the firehose it is.
struct LiveIndexNote: Sendable {
    let sentence: String

    init(_ progress: IngestProgress?, following: Bool = false, now: Date = Date()) {
        if following {
            sentence = "Live index of Bluesky: kept by another server; its posts are found here as they arrive."
            return
        }
        guard let progress, let lag = progress.lag(at: now) else {
            sentence = "Live index of Bluesky: connecting to the firehose…"
            return
        }
        let behind =
            lag < 2
            ? "up to the second"
            : lag < 120 ? "\(Int(lag.rounded())) s behind" : "\(Int((lag / 60).rounded())) min behind"
        sentence = "Live index of Bluesky: \(postCount(progress.stored ?? progress.posts)), \(behind)."
    }
}

/// A source's toggle in the search form.
struct SourceToggle: Sendable {
    let name: String
    let title: String
    let isOn: Bool
}

extension SearchPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append(
            """
            <form class="search" action="\(url: formAction)" method="get" role="search">
              <input type="search" name="q" value="\(query)" placeholder="Search" aria-label="Search" \
            enterkeyhint="search" autocapitalize="off" autocomplete="off" spellcheck="false">

            """)
        if let back { html.append("  <input type=\"hidden\" name=\"back\" value=\"\(back)\">\n") }
        html.append("  <button type=\"submit\">Search</button>\n")
        writeToggles(to: &html)
        html.append(
            """
            </form>
            <p class="legend" aria-label="Colours"><span class="m m-hashtag">#hashtag</span> <span class="m \
            m-user">@user</span> \
            <span class="m m-url">link</span>
            """)
        if let imagesURL { html.append(" <a class=\"images-link\" href=\"\(url: imagesURL)\">\(Icon.grid) Images</a>") }
        html.append("</p>\n")
        if isUnrecorded {
            html.append(
                """
                <p class=\"dim note unrecorded\" role=\"status\">Opened from another site, so not kept in Recents. \
                Search here to keep it.</p>\n
                """)
        }
        if let liveIndex {
            html.append(
                """
                <p class=\"live-index small\"><span class=\"live-dot\" \
                aria-hidden=\"true\">●</span> \(liveIndex.sentence)</p>\n
                """
            )
        }
        if errors.isEmpty {
            writePosts(to: &html)
        } else {
            html.append("<div class=\"error\" role=\"alert\">")
            for error in errors { html.append("<p>\(error)</p>") }
            html.append("<a class=\"button\" href=\"\(url: retryURL)\">Try again</a></div>\n")
        }
    }

    /// A checkbox per source: they work as a plain form, and the choice is remembered for the next search.
    private func writeToggles(to html: inout HTMLWriter) {
        guard !toggles.isEmpty else { return }
        html.append(
            """
              <fieldset class=\"sources\"><legend class=\"visually-hidden\">Sources</legend><input type=\"hidden\" \
            name=\"sources\" value=\"1\">\n
            """
        )
        for toggle in toggles {
            html.append(
                """
                    <label class=\"source\"><input type=\"checkbox\" name=\"source\" \
                value=\"\(toggle.name)\"\(toggle.isOn ? " checked" as Markup : .empty)> \(toggle.title)</label>\n
                """
            )
        }
        html.append("  </fieldset>\n")
    }

    /// What was left out for a visitor, and how to see it.
    private func writeSignInOnly(to html: inout HTMLWriter) {
        guard signInOnly > 0 else { return }
        let posts = signInOnly == 1 ? "1 post is" : "\(signInOnly) posts are"
        html.append(
            """
            <p class=\"dim note sign-in-only\" role=\"status\">\(posts) not shown: their authors show their posts only \
            to people who are signed in. <a href=\"\(url: SiteURL.signIn(next: retryURL).path)\">Sign in</a></p>\n
            """
        )
    }

    private func writePosts(to html: inout HTMLWriter) {
        // A search that found nothing offers to search again (the form), not newer posts than none.
        if let newerURL, !isEmpty {
            html.append("<a class=\"button newer\" href=\"\(url: newerURL)\" data-page=\"newer\">Newer posts</a>\n")
        }
        if !failures.isEmpty {
            html.append("<ul class=\"failures\" role=\"status\">")
            for failure in failures { html.append("<li>\(failure)</li>") }
            html.append("</ul>\n")
        }
        writeSignInOnly(to: &html)
        if isNewerOnly {
            html.append(
                """
                <p class=\"dim note\">Only the posts newer than the page you were reading. <a \
                href=\"\(url: retryURL)\">All posts</a></p>\n
                """
            )
        }
        html.append("<ol class=\"posts\">\n")
        for row in rows { row.write(to: &html) }
        html.append("</ol>\n")
        if isEmpty { html.append("<p class=\"empty\">No posts\(isNewerOnly ? " newer than these" : "").</p>\n") }
        if let olderURL {
            html.append("<a class=\"button older\" href=\"\(url: olderURL)\" data-page=\"older\">Older posts</a>\n")
        }
        if let feedURL = chrome.feedURL {
            html.append(
                """
                <p class=\"feed-link small\"><a href=\"\(url: feedURL)\" type=\"application/rss+xml\">RSS feed of \
                this search</a></p>\n
                """
            )
        }
    }
}
