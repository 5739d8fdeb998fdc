import Smashtag

/// The Popularity page of a term: Hashtags and Users counted more than once, by count; a section with no rows is
/// left out. The same rows come live from the event stream.
struct PopularityPageView: Sendable {
    let chrome: Chrome
    let term: String
    let eventsURL: String
    let sections: [Section]
    let isEmpty: Bool

    struct Section: Sendable {
        let title: String
        let rows: [Row]
    }

    struct Row: Sendable {
        let mention: String
        let count: Int
        let kind: String
        let searchURL: String
    }

    init(_ table: PopularityTable, tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "Popularity: " + table.term, tab: tab, back: back, isRoot: false)
        term = table.term
        eventsURL = SiteURL.popularityEvents(term: table.term).path
        sections = table.sections.filter { !$0.rows.isEmpty }.map { section in
            Section(title: section.title, rows: section.rows.map { Row($0, kind: section.kind, tab: tab, back: here) })
        }
        isEmpty = sections.isEmpty
    }
}

extension PopularityPageView.Row {
    /// A hashtag searches `#tag`, a user `@user OR from:user`, as on the Mentions page.
    init(_ mention: PopularMention, kind: MentionSection.Kind, tab: Tab, back: String) {
        self.mention = mention.mention
        count = mention.count
        self.kind = kind == .hashtags ? "hashtag" : "user"
        let query = kind == .hashtags ? MentionSearch.hashtag(mention.mention) : MentionSearch.user(mention.mention)
        searchURL = SiteURL.search(tab, query: query, back: back).path
    }
}

extension PopularityPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("""
            <div id="popularity" data-events="\(url: eventsURL)" data-term="\(term)">
            <p class="dim note">Hashtags and users mentioned more than once in all the tweets fetched for “\(term)”. \
            <span class="live" hidden>● live</span></p>

            """)
        for section in sections {
            html.append("<section class=\"mentions popular\">\n  <h2>\(section.title)</h2>\n  <ul>\n")
            for row in section.rows {
                html.append("""
                      <li><a class="item" href="\(url: row.searchURL)" data-mention="\(row.kind)"><span class="name">\(row.mention)</span>\
                    <span class="count">\(row.count)</span></a></li>

                    """)
            }
            html.append("  </ul>\n</section>\n")
        }
        if isEmpty { html.append("<p class=\"empty\">No hashtag or user is mentioned more than once yet.</p>\n") }
        html.append("</div>\n")
    }
}
