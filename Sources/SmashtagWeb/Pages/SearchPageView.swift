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
            tweets = page.tweets.map { TweetRow($0, tab: tab, back: here) }
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
