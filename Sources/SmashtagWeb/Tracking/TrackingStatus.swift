import AppStore
import Posts
import Team
import Tracking

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a term's tracking shows on its Recents row and its Popularity page: its state, and the form that starts or
/// stops it (a POST with the page's CSRF token, coming back to `back`).
struct TrackingStatus: Sendable {
    /// The choices the Popularity page's form offers, in seconds.
    static let intervals: [(seconds: Int, label: String)] = [
        (10, "10 s"), (30, "30 s"), (60, "1 min"), (300, "5 min"), (900, "15 min"), (3600, "1 h"),
    ]

    let term: String
    let state: TrackingState
    let csrf: String
    let back: String
    /// Whether the one the page is for may start or stop it: a researcher starts, and stops their own (an admin
    /// anyone's).
    let mayChange: Bool

    var isTracked: Bool { state.summary != nil }

    init(
        term: String, tracked: TrackedTerm?, csrf: String, back: String, caller: Caller = Viewing.caller,
        now: Date = Date()
    ) {
        (self.term, self.csrf, self.back) = (term, csrf, back)
        state = TrackingState(tracked, now: now)
        mayChange =
            caller.may(Route.track.access)
            && (tracked == nil || caller.may(Needs.anyonesTracking) || tracked?.trackedBy == caller.holder)
    }

    /// The mark on a Recents row, and its button.
    func writeRowControls(to html: inout HTMLWriter) {
        if let summary = state.summary { html.append("<span class=\"tracked-mark small\">● \(summary)</span>") }
        writeForm(to: &html, withChoices: false)
    }

    /// The Popularity page's line, its problems (kept live by the page's event stream) and its form.
    func writeSection(to html: inout HTMLWriter) {
        html.append("<section class=\"tracking\" aria-label=\"Tracking\">\n<div class=\"tracking-state\">")
        state.write(to: &html)
        html.append("</div>\n")
        writeForm(to: &html, withChoices: true)
        html.append("</section>\n")
    }

    private func writeForm(to html: inout HTMLWriter, withChoices: Bool) {
        guard mayChange else { return }
        let action = isTracked ? SiteURL.untrack.path : SiteURL.track.path
        html.append(
            """
            <form action="\(url: action)" method="post" class="track">\
            <input type="hidden" name="term" value="\(term)">\
            <input type="hidden" name="csrf" value="\(csrf)">\
            <input type="hidden" name="back" value="\(back)">
            """)
        if withChoices, !isTracked {
            html.append("<label class=\"small\">Every <select name=\"every\">")
            for choice in Self.intervals {
                let selected: Markup = choice.seconds == TrackingPlan.defaultInterval ? " selected" : ""
                html.append("<option value=\"\(choice.seconds)\"\(selected)>\(choice.label)</option>")
            }
            html.append("</select></label> ")
        }
        let label = isTracked ? "Untrack" : "Track"
        html.append("<button type=\"submit\" aria-label=\"\(label) \(term)\">\(label)</button></form>\n")
    }
}

/// Whether a term is tracked, how often, when it was last fetched and how many posts it has, and each source's
/// failure in one sentence: the Popularity page's tracking line, written into the page and sent as a live update.
struct TrackingState: Sendable {
    /// "tracked · every 5 min · last fetched 2 min ago · 12,345 posts"; nil for a term not tracked.
    let summary: String?
    /// "Mastodon: rate limited until 14:05", one per source that failed or skipped posts.
    let problems: [String]

    init(_ tracked: TrackedTerm?, now: Date = Date()) {
        guard let tracked else {
            (summary, problems) = (nil, [])
            return
        }
        let fetched = tracked.fetched.map { "last fetched " + ElapsedTime.ago($0, now: now) } ?? "not fetched yet"
        summary =
            "tracked · \(tracked.plan.everyText) · \(fetched) · \(grouped(tracked.posts)) posts"
            + (tracked.plan.keepText.map { " · \($0)" } ?? "")
        problems = tracked.sources.flatMap { [$0.error, $0.gap].compactMap { $0 } }
    }

    func write(to html: inout HTMLWriter) {
        if let summary {
            html.append("<p class=\"tracked-mark\">● \(summary.prefix(1).uppercased() + summary.dropFirst())</p>\n")
        } else {
            html.append(
                """
                <p class="dim small">Not tracked: tracking collects a term’s new posts on a schedule, without \
                searching.</p>

                """)
        }
        guard !problems.isEmpty else { return }
        html.append("<ul class=\"tracking-problems small\">")
        for problem in problems { html.append("<li>\(problem)</li>") }
        html.append("</ul>\n")
    }

    /// The line alone, as a live update carries it.
    var rendered: String {
        var html = HTMLWriter(capacity: 512)
        write(to: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }
}
