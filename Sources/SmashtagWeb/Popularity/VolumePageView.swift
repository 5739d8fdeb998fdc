import Foundation
import Posts

/// A term's volume before collecting, network by network: each count said as whose view it is, its days as a table.
struct VolumePageView: Sendable {
    struct Count: Sendable {
        let title: String
        let sentence: String
        let days: [(day: String, posts: String, accounts: String)]
    }

    let chrome: Chrome
    let term: String
    let counts: [Count]
    let notes: [String]
    let jsonURL: String

    init(term: String, report: VolumeReport, tab: Tab, back: String?) {
        chrome = Chrome(title: "Volume: " + term, tab: tab, back: back, isRoot: false)
        self.term = term
        counts = report.answers.map { answer in
            Count(
                title: answer.title,
                sentence: "\(postCount(answer.volume.posts)), \(answer.volume.limits).",
                days: answer.volume.days.reversed().map { day in
                    (
                        day.date, grouped(day.posts), day.accounts.map(grouped) ?? ""
                    )
                })
        }
        notes =
            report.failures.map(\.message) + report.unable.map { "\($0.title) cannot count “\(term)”: \($0.why)." }
            + (report.answers.isEmpty && report.failures.isEmpty && report.unable.isEmpty
                ? [
                    "No network this server searches counts posts before collecting (Mastodon counts a hashtag's "
                        + "last 7 days)."
                ]
                : [])
        jsonURL = SiteURL.apiVolume(term: term).path
    }
}

extension VolumePageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append(
            """
            <div class="volume">
            <p class="dim note">How much each network says there is for “\(term)” before anything is collected: \
            nothing here is stored or counted.</p>

            """)
        if !notes.isEmpty {
            html.append("<ul class=\"failures\" role=\"status\">")
            for note in notes { html.append("<li>\(note)</li>") }
            html.append("</ul>\n")
        }
        for count in counts {
            html.append(
                """
                <section>
                <h2>\(count.title)</h2>
                <p>\(count.sentence)</p>
                <table>
                <tr><th scope="col">Day (UTC)</th><th scope="col">Posts</th><th scope="col">Accounts</th></tr>

                """)
            for day in count.days {
                html.append("<tr><td>\(day.day)</td><td>\(day.posts)</td><td>\(day.accounts)</td></tr>\n")
            }
            html.append("</table>\n</section>\n")
        }
        html.append("<p class=\"actions\"><a class=\"dim\" href=\"\(url: jsonURL)\">JSON</a></p>\n</div>\n")
    }
}
