import AppStore
import Posts

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
        let tracking: TrackingStatus
    }

    /// `tracked`: the tracked terms, marked on their rows.
    init(terms: [String], tracked: [TrackedTerm] = [], csrf: String) {
        chrome = Chrome(title: "Recents", tab: .recents, isRoot: true)
        let tracking = Dictionary(tracked.map { ($0.key, $0) }) { first, _ in first }
        let here = SiteURL.recents.path
        rows = terms.map { term in
            Row(
                term: term, searchURL: SiteURL.search(.recents, query: term, back: here).path,
                popularityURL: SiteURL.popularity(.recents, term: term).path, deleteAction: SiteURL.deleteRecent.path,
                csrf: csrf,
                tracking: TrackingStatus(
                    term: term, tracked: (try? SearchTermKey(term)).flatMap { tracking[$0.key] }, csrf: csrf,
                    back: here))
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
            let trackedMark: Markup = row.tracking.isTracked ? " data-tracked" : .empty
            html.append(
                """
                  <li class="recent" data-term="\(row.term)"\(trackedMark)>
                    <a class="term" href="\(url: row.searchURL)">\(row.term)</a>
                    <a class="detail" href="\(url: row.popularityURL)" aria-label="Popularity of \(row.term)">\
                \(Icon.details)</a>
                    <form action="\(url: row.deleteAction)" method="post" class="delete">
                      <input type="hidden" name="term" value="\(row.term)">
                      <input type="hidden" name="csrf" value="\(row.csrf)">
                      <button type="submit" aria-label="Delete \(row.term)">Delete</button>
                    </form>

                """)
            row.tracking.writeRowControls(to: &html)
            html.append("  </li>\n")
        }
        html.append("</ul>\n")
    }
}
