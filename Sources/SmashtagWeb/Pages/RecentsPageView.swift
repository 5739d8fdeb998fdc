import Twitter

/// The Recents page: the last 100 terms, most recent first, each with its search, a delete form and Popularity.
struct RecentsPageView: Sendable {
    let chrome: Chrome
    let rows: [Row]
    let isEmpty: Bool

    struct Row: Sendable {
        let term: String
        let searchURL: String
        let popularityURL: String
        let deleteAction: String
        let csrf: String
    }

    init(terms: [String], csrf: String) {
        chrome = Chrome(title: "Recents", tab: .recents, isRoot: true)
        rows = terms.map {
            Row(term: $0, searchURL: SiteURL.search(.recents, query: $0, back: SiteURL.recents.path).path,
                popularityURL: SiteURL.popularity(.recents, term: $0).path, deleteAction: SiteURL.deleteRecent.path, csrf: csrf)
        }
        isEmpty = terms.isEmpty
    }
}

/// A page that says what went wrong, with the status kept.
struct ErrorPageView: Sendable {
    let chrome: Chrome
    let message: String
}

/// The image viewer: one image, aspect-filled, to pan and zoom.
struct ViewerPageView: Sendable {
    let chrome: Chrome
    let source: String
}

/// The images of a page of results, each at its own aspect ratio, in columns whose width the person chooses.
struct ImagesPageView: Sendable {
    let chrome: Chrome
    let cells: [Cell]
    let isEmpty: Bool

    struct Cell: Sendable {
        let tweetID: String
        let imageURL: String
        let width: Int
        let height: Int
        /// The one-tweet list of the image's tweet.
        let tweetURL: String
    }

    init(query: String, tweets: [Tweet], tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "Images: " + query, tab: tab, back: back, isRoot: false)
        cells = tweets.flatMap { tweet in
            tweet.media.compactMap { item -> Cell? in
                guard let url = SafeURL.image(item.url) else { return nil }
                let ratio = item.aspectRatio.isFinite && item.aspectRatio > 0 ? item.aspectRatio : 1
                return Cell(tweetID: tweet.id, imageURL: url, width: 600, height: max(1, Int((600 / ratio).rounded())),
                            tweetURL: SiteURL.oneTweet(tab, query: query, id: tweet.id, back: here).path)
            }
        }
        isEmpty = cells.isEmpty
    }
}
