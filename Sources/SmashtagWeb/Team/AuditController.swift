import AppStore
import Foundation
import Hummingbird
import Team

/// The audit trail for admins: a page, newest first, and its JSON twin `/api/audit?since=7d`.
struct AuditController: Sendable {
    let site: Site
    static let shownAtMost = 1000

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.audit) { _, context in
            HTML(AuditPageView(since: try since(context), entries: try await entries(context)))
        }
        router.on(.apiAudit) { _, context in JSONBody(try await entries(context)) }
    }

    /// `since`, as written; 7 days when not given.
    private func since(_ context: SiteContext) throws -> String {
        let text = context.queryString["since"] ?? "7d"
        do {
            _ = try Period.seconds(text)
        } catch {
            throw RefusedRequest(.badRequest, error.description)
        }
        return text
    }

    private func entries(_ context: SiteContext) async throws -> [AuditEntry] {
        let seconds = try Period.seconds(try since(context))
        return try await site.audit.entries(since: Date().addingTimeInterval(-Double(seconds)), limit: Self.shownAtMost)
    }
}

/// The audit trail as a list, newest first: when, who, what, from where.
struct AuditPageView: Sendable {
    let chrome = Chrome(title: "Audit trail", tab: nil, back: SiteURL.account.path, isRoot: false)
    let since: String
    let entries: [AuditEntry]
}

extension AuditPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("<form class=\"options\" action=\"\(url: SiteURL.audit(since: nil).path)\" method=\"get\">")
        html.append("<label>Since <select name=\"since\">")
        for choice in ["24h", "7d", "30d", "365d"] {
            let selected: Markup = choice == since ? " selected" : .empty
            html.append("<option value=\"\(choice)\"\(selected)>\(choice)</option>")
        }
        html.append("</select></label> <button type=\"submit\">Show</button></form>\n")
        guard !entries.isEmpty else {
            html.append("<p class=\"empty\">Nothing was written in this time.</p>\n")
            return
        }
        html.append("<ol class=\"audit\">\n")
        for entry in entries {
            html.append(
                """
                  <li><time datetime="\(entry.at.ISO8601Format())">\(entry.at.ISO8601Format())</time> \
                <strong>\(entry.actor)</strong> \(entry.action)\(entry.detail.isEmpty ? "" : " ")\(entry.detail) \
                <span class="dim small">from \(entry.address)</span></li>

                """)
        }
        html.append("</ol>\n")
        if entries.count == AuditController.shownAtMost {
            html.append("<p class=\"dim small\">The newest \(AuditController.shownAtMost) are shown.</p>\n")
        }
    }
}
