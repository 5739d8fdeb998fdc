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
