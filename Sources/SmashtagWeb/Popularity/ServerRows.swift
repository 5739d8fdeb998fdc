import AppStore
import Posts

/// The Popularity page's servers, for a term that several Mastodon servers asked as one fed: how many of its posts
/// were written on each server, and how many each server asked gave (a post several gave counts for each) — the
/// fediverse's only honest geography.
struct ServerRows: Sendable {
    let rows: [TermOrigins.ServerRow]

    /// Nil when no fleet gave the term posts in the window.
    init?(_ origins: TermOrigins?) {
        guard let rows = origins?.servers, !rows.isEmpty else { return nil }
        self.rows = rows
    }
    func write(to html: inout HTMLWriter) {
        html.append(
            """
            <section class="mentions counts servers">
            <h2>Servers</h2>
            <p class="dim small">Written on: where each post was written. Gave it: the servers asked that had it; a \
            post several had counts for each.</p>
            <table>
            <tr><th scope="col">Server</th><th scope="col">Written on</th><th scope="col">Gave it</th></tr>

            """)
        for row in rows {
            html.append(
                """
                <tr><th scope="row">\(row.server)</th><td>\(grouped(row.written))</td><td>\(grouped(row.gave))</td>\
                </tr>

                """
            )
        }
        html.append("</table>\n</section>\n")
    }
}
