import AppStore

/// The Popularity page of a term: Hashtags and Users counted more than once, by count, each with a sparkline of
/// the term's last buckets and its count opening the mention's trend; a section with no rows is left out. The same
/// rows, rendered here, come live from the event stream.
struct PopularityPageView: Sendable {
    let chrome: Chrome
    let term: String
    let eventsURL: String
    let rows: PopularityRows
    let tracking: TrackingStatus

    init(_ overview: PopularityOverview, tracking: TrackingStatus, tab: Tab, back: String?, here: String) {
        self.tracking = tracking
        chrome = Chrome(title: "Popularity: " + overview.table.term, tab: tab, back: back, isRoot: false)
        term = overview.table.term
        eventsURL = SiteURL.popularityEvents(term: overview.table.term, rows: tab).path
        rows = PopularityRows(overview, tab: tab, here: here)
    }
}

/// The sections of a Popularity page: written into the page, and sent whole as a live update.
struct PopularityRows: Sendable {
    let sections: [Section]
    /// What the sparklines span, for their labels: "the 14 days to Nov 23" (they end with the term's newest post,
    /// which may be long ago).
    let span: String

    struct Section: Sendable {
        let title: String
        let rows: [Row]
    }

    struct Row: Sendable {
        let mention: String
        let count: Int
        let kind: String
        let searchURL: String
        let trendURL: String
        let sparkline: Sparkline
    }

    init(_ overview: PopularityOverview, tab: Tab, here: String) {
        let sparklines = overview.sparklines
        let end = sparklines.end.map { " to " + TrendTime.label($0, bucket: sparklines.bucket, full: true) } ?? ""
        span = "the \(Sparklines.length) \(sparklines.bucket == .hour ? "hours" : "days")\(end)"
        sections = overview.table.sections.filter { !$0.rows.isEmpty }.map { section in
            Section(
                title: section.title,
                rows: section.rows.map { mention in
                    Row(
                        mention, kind: section.kind, term: overview.table.term,
                        counts: sparklines.counts(for: mention.mention), tab: tab, back: here)
                })
        }
    }

    func write(to html: inout HTMLWriter) {
        for section in sections {
            html.append("<section class=\"mentions popular\">\n  <h2>\(section.title)</h2>\n  <ul>\n")
            for row in section.rows {
                html.append(
                    """
                      <li><a class="item" href="\(url: row.searchURL)" data-mention="\(row.kind)"><span \
                    class="name">\(row.mention)</span></a>\
                    <a class="trend" href="\(url: row.trendURL)" aria-label="\(row.mention): \(row.count) posts; its \
                    trend over \(span)">\
                    \(row.sparkline.markup)<span class="count">\(row.count)</span></a></li>

                    """)
            }
            html.append("  </ul>\n</section>\n")
        }
        if sections.isEmpty {
            html.append("<p class=\"empty\">No hashtag or user is mentioned more than once yet.</p>\n")
        } else {
            html.append("<p class=\"dim small span\">The lines: \(span) (UTC). Tap a count for its chart.</p>\n")
        }
    }

    /// The rows alone, as a live update carries them.
    var rendered: String {
        var html = HTMLWriter(capacity: 8_192)
        write(to: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }
}

extension PopularityRows.Row {
    /// A hashtag searches `#tag`, a user `@user OR from:user`, as on the Mentions page.
    init(_ mention: PopularMention, kind: MentionSection.Kind, term: String, counts: [Int], tab: Tab, back: String) {
        self.mention = mention.mention
        count = mention.count
        self.kind = kind == .hashtags ? "hashtag" : "user"
        let query = kind == .hashtags ? MentionSearch.hashtag(mention.mention) : MentionSearch.user(mention.mention)
        searchURL = SiteURL.search(tab, query: query, back: back).path
        trendURL = SiteURL.trend(tab, term: term, mention: mention.mention, bucket: nil, back: back).path
        sparkline = Sparkline(counts)
    }
}

extension PopularityPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append(
            """
            <div id="popularity" data-events="\(url: eventsURL)" data-term="\(term)">
            <p class="dim note">Hashtags and users mentioned more than once in all the posts fetched for “\(term)”. \
            <span class="live" hidden>● live</span></p>

            """)
        tracking.writeSection(to: &html)
        html.append("<div class=\"popular-rows\">\n")
        rows.write(to: &html)
        html.append("</div>\n</div>\n")
    }
}
