import AppStore
import Hummingbird

/// The Recents page, deleting a term from it (a form post with CSRF and origin checks), and its JSON twin.
struct RecentsController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.recents) { request, _ in try await recents(request) }
        router.on(.deleteRecent) { request, context in try await deleteRecent(request, context: context) }
        router.on(.apiRecents) { _, _ in JSONBody(try await Recents(database: site.database).terms()) }
    }

    private func recents(_ request: Request) async throws -> HTML {
        let (token, isNew) = CSRF.token(of: request)
        let terms = try await Recents(database: site.database).terms()
        let tracked = try await TrackedTerms(database: site.database).all()
        var page = HTML(RecentsPageView(terms: terms, tracked: tracked, csrf: token))
        if isNew { page.headers[.setCookie] = CSRF.cookie(token) }
        return page
    }

    private func deleteRecent(_ request: Request, context: SiteContext) async throws -> Response {
        let form = try await CSRF.checkedForm(request, context: context)
        if let term = form["term"] { try await Recents(database: site.database).delete(term) }
        return Response.redirect(to: SiteURL.recents.path, type: .normal)
    }
}
