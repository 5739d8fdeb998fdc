import Posts
import Twitter

/// The Search page: the field, the legend, the tweets newest first, and the controls for newer and older tweets.
struct SearchPageView: Sendable {
    let chrome: Chrome
    let query: String
    let formAction: String
    let tab: String
    let back: String?
    let tweets: [TweetRow]
    let isEmpty: Bool
    let newerURL: String?
    let olderURL: String?
    /// Shown instead of tweets when the fetch failed.
    let error: String?
    let retryURL: String
    /// This page holds only tweets newer than an earlier page (a "Newer" fetch).
    let isNewerOnly: Bool
    /// The images of the tweets shown, as a grid; nil when they have none.
    let imagesURL: String?

    init(query: String, tab: Tab, back: String?, isRoot: Bool, outcome: Result<SearchPage, SearchFailure>, isNewerOnly: Bool, here: String) {
        chrome = Chrome(title: query, tab: tab, back: back, isRoot: isRoot)
        self.query = query
        formAction = isRoot ? SiteURL.searchRoot(query: nil).path : "/\(tab.rawValue)/search"
        self.tab = tab.rawValue
        self.back = isRoot ? nil : back
        retryURL = here
        self.isNewerOnly = isNewerOnly
        switch outcome {
        case .success(let page):
            let links = TweetLinks(tab: tab, back: here)
            tweets = page.tweets.map { TweetRow($0, links: links) }
            isEmpty = page.tweets.isEmpty
            let pageTab = isRoot ? nil : tab
            newerURL = page.newer.position.sinceID.map { SiteURL.newer(pageTab, query: query, since: $0).path }
            olderURL = page.older?.position.beforeID.map { SiteURL.older(pageTab, query: query, before: $0, back: back).path }
            error = nil
            let hasImages = page.tweets.contains { !$0.media.isEmpty }
            imagesURL = hasImages ? page.tweets.first.flatMap { newest in page.tweets.last.map { oldest in
                SiteURL.images(tab, query: query, newest: newest.id, oldest: oldest.id, back: here).path
            } } : nil
        case .failure(let failure):
            (tweets, isEmpty, newerURL, olderURL, error, imagesURL) = ([], false, nil, nil, failure.message, nil)
        }
    }
}

/// A fetch that failed, as a sentence for the page (never an internal description).
struct SearchFailure: Error, Sendable {
    let message: String
}

extension SearchRequest.Position {
    /// From a page's `since=ID` (newer tweets) or `before=ID` (older ones); neither is the newest.
    init(since: Substring?, before: Substring?) {
        if let since { self = .newer(than: String(since)) }
        else if let before { self = .older(than: String(before), token: nil) }
        else { self = .newest }
    }

    var sinceID: String? {
        if case .newer(let id) = self { id } else { nil }
    }

    var beforeID: String? {
        if case .older(let id, _) = self { id } else { nil }
    }
}

extension SearchPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("""
            <form class="search" action="\(url: formAction)" method="get" role="search">
              <input type="search" name="q" value="\(query)" placeholder="Search Twitter" aria-label="Search Twitter" \
            enterkeyhint="search" inputmode="search" autocapitalize="off" autocomplete="off" spellcheck="false">

            """)
        if let back { html.append("  <input type=\"hidden\" name=\"back\" value=\"\(back)\">\n") }
        html.append("""
              <button type="submit">Search</button>
            </form>
            <p class="legend" aria-label="Colours"><span class="m m-hashtag">#hashtag</span> <span class="m m-user">@user</span> \
            <span class="m m-url">link</span>
            """)
        if let imagesURL { html.append(" <a class=\"images-link\" href=\"\(url: imagesURL)\">▦ Images</a>") }
        html.append("</p>\n")
        if let error {
            html.append("<div class=\"error\" role=\"alert\"><p>\(error)</p><a class=\"button\" href=\"\(url: retryURL)\">Try again</a></div>\n")
        } else {
            writeTweets(to: &html)
        }
    }

    private func writeTweets(to html: inout HTMLWriter) {
        if let newerURL { html.append("<a class=\"button newer\" href=\"\(url: newerURL)\" data-page=\"newer\">Newer tweets</a>\n") }
        html.append("<div class=\"spinner\" hidden aria-live=\"polite\">Loading…</div>\n")
        if isNewerOnly {
            html.append("<p class=\"dim note\">Only the tweets newer than the page you were reading. <a href=\"\(url: retryURL)\">All tweets</a></p>\n")
        }
        html.append("<ol class=\"tweets\">\n")
        for tweet in tweets { tweet.write(to: &html) }
        html.append("</ol>\n")
        if isEmpty { html.append("<p class=\"empty\">No tweets\(isNewerOnly ? " newer than these" : "").</p>\n") }
        if let olderURL { html.append("<a class=\"button older\" href=\"\(url: olderURL)\" data-page=\"older\">Older tweets</a>\n") }
    }
}
