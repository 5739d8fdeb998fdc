import AppStore
import SmashtagApp
import Team

/// The Popularity page of a term: Hashtags and Users counted more than once, by count, each with a sparkline of
/// the term's last buckets and its count opening the mention's trend; a section with no rows is left out. The same
/// rows, rendered here, come live from the event stream.
struct PopularityPageView: Sendable {
    let chrome: Chrome
    let term: String
    let window: TimeWindow
    let eventsURL: String
    let rows: PopularityRows
    let tracking: TrackingStatus
    let windows: [LinkChoice]
    let networkURL: String
    /// How much each network says there is for the term.
    let volumeURL: String
    let csvURL: String

    init(_ page: PopularityPage, tracking: TrackingStatus, tab: Tab, back: String?, here: String) {
        self.tracking = tracking
        let table = page.overview.table
        chrome = Chrome(title: "Popularity: " + table.term, tab: tab, back: back, isRoot: false)
        term = table.term
        window = table.window
        eventsURL = SiteURL.popularityEvents(term: table.term, rows: tab, window: table.window).path
        rows = PopularityRows(page, tab: tab, here: here)
        windows = TimeWindow.allCases.map { window in
            LinkChoice(
                title: window.label, url: SiteURL.popularity(tab, term: table.term, window: window).path,
                isCurrent: window == table.window)
        }
        let options = NetworkOptions(window: table.window, top: NetworkParameters.pageTop)
        networkURL = SiteURL.network(tab, term: table.term, options: options, back: here).path
        volumeURL = SiteURL.volume(tab, term: table.term, back: here).path
        csvURL = SiteURL.apiPopularity(term: table.term, window: table.window, format: "csv").path
    }
}

extension PopularityPageView {
    /// An admin chooses; a researcher's datasets are always pseudonymised.
    private static let pseudonymiseChoice: Markup = """
        <label class="check"><input type="checkbox" name="pseudonymise" value="1"> Pseudonymise people</label>
        """
    private static let alwaysPseudonymised: Markup = """
        <input type="hidden" name="pseudonymise" value="1"><p class="dim note">Pseudonymised, as your role allows.</p>
        """

    /// The term's posts to take away, in the page's window: a plain form, so it works without JavaScript.
    private func writeDatasetForm(to html: inout HTMLWriter) {
        guard Viewing.caller.may(Needs.export) else { return }
        let pseudonymise = Viewing.caller.may(Needs.identified) ? Self.pseudonymiseChoice : Self.alwaysPseudonymised
        html.append(
            """
            <details class="options-box dataset-box"><summary>Download the posts</summary>
            <form class="options" method="get" action="\(url: Route.apiDataset.path())">
            <input type="hidden" name="term" value="\(term)">\
            <input type="hidden" name="window" value="\(window.rawValue)">
            <label>Format <select name="format"><option value="ndjson">NDJSON, one post per line</option>\
            <option value="csv">CSV tables (zip)</option></select></label>
            \(pseudonymise)
            <button type="submit">Download</button>
            </form>
            <p class="dim note">The posts counted for “\(term)”\(window == .all ? "" : " in \(window.span)"), as \
            fetched. Pseudonymised: every author \
            and mentioned user becomes a code that stays the same across downloads from this server; names, pictures \
            and profile links are left out. The text itself may still identify people.</p>
            </details>

            """)
    }
}

/// The sections of a Popularity page: written into the page, and sent whole as a live update.
struct PopularityRows: Sendable {
    /// Where the posts counted in the window came from ("From 1,250 posts: 1,100 from X, 150 from Mastodon.").
    let origins: String?
    let sections: [Section]
    let conversations: ConversationRows?
    /// Where a fleet's posts were written and which servers gave them.
    let servers: ServerRows?
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
        /// Against the window before: "new", "+3", "−2" or "=", with a word for screen readers; nil for all time.
        let change: Change?
        /// The mentions it is named with most, with their kinds.
        let partners: [(mention: String, kind: String)]
    }

    struct Change: Sendable {
        let shown: String
        let name: String
        let spoken: String

        init(_ momentum: Momentum, window: TimeWindow) {
            let before = "the \(window.label) before"
            (shown, spoken) =
                switch momentum {
                case .new: ("new", "new: none in \(before)")
                case .rising(let by): ("+\(by)", "rising: \(by) more than in \(before)")
                case .falling(let by): ("−\(by)", "falling: \(by) fewer than in \(before)")
                case .steady: ("=", "as many as in \(before)")
                }
            name = momentum.name
        }
    }

    init(_ page: PopularityPage, tab: Tab, here: String) {
        let overview = page.overview
        origins = page.origins?.sentence
        servers = ServerRows(page.origins)
        let sparklines = overview.sparklines
        let end = sparklines.end.map { " to " + TrendTime.label($0, bucket: sparklines.bucket, full: true) } ?? ""
        span = "the \(Sparklines.length) \(sparklines.bucket == .hour ? "hours" : "days")\(end)"
        conversations = page.conversations.flatMap { ConversationRows($0, tab: tab, here: here) }
        sections = overview.table.sections.filter { !$0.rows.isEmpty }.map { section in
            Section(
                title: section.title,
                rows: section.rows.map { mention in
                    Row(
                        mention, kind: section.kind, table: overview.table,
                        counts: sparklines.counts(for: mention.mention), tab: tab, back: here)
                })
        }
    }

    func write(to html: inout HTMLWriter) {
        if let origins { html.append("<p class=\"dim origins\">\(origins)</p>\n") }
        for section in sections {
            html.append("<section class=\"mentions popular\">\n  <h2>\(section.title)</h2>\n  <ul>\n")
            for row in section.rows {
                let spoken = row.change.map { "; \($0.spoken)" } ?? ""
                html.append(
                    """
                      <li><a class="item" href="\(url: row.searchURL)" data-mention="\(row.kind)"><span \
                    class="name">\(row.mention)</span>
                    """)
                writePartners(row.partners, to: &html)
                html.append(
                    """
                    </a><a class="trend" href="\(url: row.trendURL)" aria-label="\(row.mention): \(row.count) \
                    posts\(spoken); its trend over \(span)">\(row.sparkline.markup)
                    """)
                if let change = row.change {
                    html.append("<span class=\"change \(change.name)\" aria-hidden=\"true\">\(change.shown)</span>")
                }
                html.append("<span class=\"count\">\(row.count)</span></a></li>\n")
            }
            html.append("  </ul>\n</section>\n")
        }
        if sections.isEmpty {
            html.append("<p class=\"empty\">No hashtag or user is mentioned more than once yet.</p>\n")
        } else {
            html.append("<p class=\"dim small span\">The lines: \(span) (UTC). Tap a count for its chart.</p>\n")
        }
        conversations?.write(to: &html)
        servers?.write(to: &html)
    }

    /// "with #a, @b, #c" under the mention, each coloured by its kind.
    private func writePartners(_ partners: [(mention: String, kind: String)], to html: inout HTMLWriter) {
        guard !partners.isEmpty else { return }
        html.append("<span class=\"partners\">with ")
        for (index, partner) in partners.enumerated() {
            if index > 0 { html.append(", ") }
            html.append("<span class=\"m-\(partner.kind)\">\(partner.mention)</span>")
        }
        html.append("</span>")
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
    init(
        _ mention: PopularMention, kind: MentionSection.Kind, table: PopularityTable, counts: [Int], tab: Tab,
        back: String
    ) {
        self.mention = mention.mention
        count = mention.count
        self.kind = kind.singular
        let query = kind == .hashtags ? MentionSearch.hashtag(mention.mention) : MentionSearch.user(mention.mention)
        searchURL = SiteURL.search(tab, query: query, back: back).path
        trendURL = SiteURL.trend(tab, term: table.term, mention: mention.mention, bucket: nil, back: back).path
        sparkline = Sparkline(counts)
        change = table.momentum(of: mention).map { PopularityRows.Change($0, window: table.window) }
        partners = table.partners(of: mention).map { ($0, $0.hasPrefix("@") ? "user" : "hashtag") }
    }
}

extension PopularityPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append(
            """
            <div id="popularity" data-events="\(url: eventsURL)" data-term="\(term)">
            <p class="dim note">Hashtags and users mentioned more than once in the posts fetched for “\(term)”, \
            \(window.span)\(window == .all ? "" : " by their own times, against the \(window.label) before"). \
            <span class="live" hidden>● live</span></p>

            """)
        LinkChoice.write(windows, navClass: "buckets windows-choice", label: "Window", to: &html)
        html.append(
            """
            <p class="actions"><a class="item" href="\(url: networkURL)">Network</a>
            """)
        if Viewing.caller.may(Route.apiVolume.access) {
            html.append(" <a class=\"item\" href=\"\(url: volumeURL)\">Volume</a>")
        }
        if Viewing.caller.may(Needs.export) {
            html.append(" <a class=\"dim\" href=\"\(url: csvURL)\" download>CSV</a>")
        }
        html.append("</p>\n")
        writeDatasetForm(to: &html)
        tracking.writeSection(to: &html)
        html.append("<div class=\"popular-rows\">\n")
        rows.write(to: &html)
        html.append("</div>\n</div>\n")
    }
}
