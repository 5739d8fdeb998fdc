import AppStore
import Foundation
import Posts

/// A mention's trend under a term: a bar chart of a window of buckets ending with its newest post,
/// by hour or by day, with earlier and later windows, the counts as a table too, and the JSON twin.
struct TrendPageView: Sendable {
    struct TableRow: Sendable {
        let time: String
        let count: Int
    }

    let chrome: Chrome
    let mention: String
    let searchURL: String
    let summary: String
    let chart: TrendChart?
    let table: [TableRow]
    let buckets: [LinkChoice]
    let earlierURL: String?
    let laterURL: String?
    let jsonURL: String

    init(_ series: TrendSeries, end: Date?, tab: Tab, back: String?) {
        chrome = Chrome(title: "Trend: " + series.mention, tab: tab, back: back, isRoot: false)
        mention = series.mention
        let query =
            series.mention.hasPrefix("@") ? MentionSearch.user(series.mention) : MentionSearch.hashtag(series.mention)
        let here = SiteURL.trend(tab, term: series.term, mention: series.mention, bucket: series.bucket, back: back)
            .path
        searchURL = SiteURL.search(tab, query: query, back: here).path
        jsonURL = SiteURL.apiTrend(term: series.term, mention: series.mention, bucket: series.bucket).path
        buckets = TrendBucket.allCases.map { bucket in
            LinkChoice(
                title: bucket == .hour ? "By hour" : "By day",
                url: SiteURL.trend(tab, term: series.term, mention: series.mention, bucket: bucket, back: back).path,
                isCurrent: bucket == series.bucket)
        }
        guard let latest = series.latest, series.total > 0 else {
            (summary, chart, table, earlierURL, laterURL) = (
                "No post fetched for “\(series.term)” names \(series.mention).", nil, [], nil, nil
            )
            return
        }
        // The mention's own newest bucket: its chart shows its posts even when the term's newest ones name others. An
        // `end` from a link is kept between the mention's first post and the term's last.
        let first = series.points.first?.start ?? latest
        let window = TrendWindow(
            series, end: min(max(end ?? series.points.last?.start ?? latest, first), latest), latest: latest)
        let unit = series.bucket == .hour ? "hour" : "day"
        let last = TrendTime.label(window.points.last!.start, bucket: series.bucket, full: true)
        summary = """
            \(postCount(series.total)) fetched for “\(series.term)” name \(series.mention); \(window.total) of them \
            in these \(window.points.count) \(unit)s, to \(last) (UTC).
            """
        chart = TrendChart(
            points: window.points, bucket: series.bucket, title: "\(series.mention) in “\(series.term)”, by \(unit)",
            summary: summary)
        table = window.points.filter { $0.count > 0 }.map {
            TableRow(time: TrendTime.label($0.start, bucket: series.bucket, full: true), count: $0.count)
        }
        let link = { (end: Date) in
            SiteURL.trend(tab, term: series.term, mention: series.mention, bucket: series.bucket, end: end, back: back)
                .path
        }
        earlierURL = window.hasEarlier ? link(window.earlierEnd) : nil
        laterURL = window.laterEnd.map(link)
    }
}

/// The buckets a chart shows, and where the windows before and after it end.
private struct TrendWindow {
    let points: [TrendPoint]
    let earlierEnd: Date
    let hasEarlier: Bool
    let laterEnd: Date?

    init(_ series: TrendSeries, end: Date, latest: Date) {
        let length = series.bucket.chartLength
        points = series.window(length: length, endingAt: end)
        let first = points.first?.start ?? end
        earlierEnd = first.addingTimeInterval(-series.bucket.duration)
        hasEarlier = series.points.first.map { $0.start < first } ?? false
        let next = end.addingTimeInterval(Double(length) * series.bucket.duration)
        laterEnd = end < latest ? min(next, latest) : nil
    }

    var total: Int { points.reduce(0) { $0 + $1.count } }
}

extension TrendPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("<div class=\"trend\">\n<p class=\"dim note\">\(summary)</p>\n")
        LinkChoice.write(buckets, navClass: "buckets", label: "Bucket", to: &html)
        if let chart {
            html.append("<figure class=\"chart-frame\">\n")
            chart.write(to: &html)
            html.append("</figure>\n<nav class=\"windows\" aria-label=\"Time\">")
            if let earlierURL { html.append("<a class=\"earlier\" href=\"\(url: earlierURL)\">‹ Earlier</a>") }
            if let laterURL { html.append("<a class=\"later\" href=\"\(url: laterURL)\">Later ›</a>") }
            html.append(
                """
                </nav>
                <details class="counts"><summary>The counts</summary>
                <table>
                <tr><th scope="col">Time (UTC)</th><th scope="col">Posts</th></tr>

                """
            )
            for row in table { html.append("<tr><td>\(row.time)</td><td>\(row.count)</td></tr>\n") }
            html.append("</table>\n</details>\n")
        }
        html.append(
            """
            <p class="actions"><a class="item" href="\(url: searchURL)">Search \(mention)</a> \
            <a class="dim" href="\(url: jsonURL)">JSON</a></p>
            </div>

            """)
    }
}
