import AppStore

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
            Row(
                term: $0, searchURL: SiteURL.search(.recents, query: $0, back: SiteURL.recents.path).path,
                popularityURL: SiteURL.popularity(.recents, term: $0).path, deleteAction: SiteURL.deleteRecent.path,
                csrf: csrf)
        }
        isEmpty = terms.isEmpty
    }
}

/// A page that says what went wrong, with the status kept.
extension RecentsPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        if isEmpty { html.append("<p class=\"empty\">No searches yet. Every search you make appears here.</p>\n") }
        html.append("<ul class=\"recents\">\n")
        for row in rows {
            html.append(
                """
                  <li class="recent" data-term="\(row.term)">
                    <a class="term" href="\(url: row.searchURL)">\(row.term)</a>
                    <a class="detail" href="\(url: row.popularityURL)" aria-label="Popularity of \(row.term)">ⓘ</a>
                    <form action="\(url: row.deleteAction)" method="post" class="delete">
                      <input type="hidden" name="term" value="\(row.term)">
                      <input type="hidden" name="csrf" value="\(row.csrf)">
                      <button type="submit" aria-label="Delete \(row.term)">Delete</button>
                    </form>
                  </li>

                """)
        }
        html.append("</ul>\n")
    }
}
