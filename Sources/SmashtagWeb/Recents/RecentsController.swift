import AppStore
import Hummingbird
import Team

/// The Recents page, deleting a term from it (a form post with CSRF and origin checks), and its JSON twin.
struct RecentsController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.recents) { request, context in try await recents(request, context) }
        router.on(.deleteRecent) { request, context in try await deleteRecent(request, context: context) }
        router.on(.apiRecents) { _, context in JSONBody(try await recents(of: context).terms()) }
    }

    /// The caller's own Recents (a viewer's at least, so someone's).
    private func recents(of context: SiteContext) throws -> Recents {
        Recents(database: site.database, holder: try context.holder())
    }

    private func recents(_ request: Request, _ context: SiteContext) async throws -> HTML {
        let (token, isNew) = CSRF.token(of: request)
        let terms = try await recents(of: context).terms()
        let tracked = try await TrackedTerms(database: site.database).all()
        var page = HTML(RecentsPageView(terms: terms, tracked: tracked, csrf: token))
        if isNew { page.headers[.setCookie] = CSRF.cookie(token) }
        return page
    }

    private func deleteRecent(_ request: Request, context: SiteContext) async throws -> Response {
        let form = try await CSRF.checkedForm(request, context: context)
        if let term = form["term"], try await recents(of: context).delete(term) {
            try await site.record("delete from Recents", term, by: context)
        }
        return Response.redirect(to: SiteURL.recents.path, type: .normal)
    }
}
