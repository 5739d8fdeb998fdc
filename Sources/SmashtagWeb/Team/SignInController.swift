import AppStore
import HTTPTypes
import Hummingbird
import Posts
import SmashtagApp
import Team

/// Signing in and out, and the account page. Signing in gives a new session id each time (a cookie set before
/// signing in is never promoted), kept as a hash in the store so that every server behind the proxy knows it.
struct SignInController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.signIn) { request, context in try await signInPage(request, context) }
        router.on(.startSignIn) { request, context in try await signIn(request, context) }
        router.on(.signOut) { request, context in try await signOut(request, context) }
        router.on(.account) { request, context in account(request, context) }
    }

    private func signInPage(_ request: Request, _ context: SiteContext) async throws -> Response {
        let next = SiteURL.safeBack(context.queryString["next"])
        if context.caller.person != nil { return .redirect(to: next ?? SiteURL.searchRoot(query: nil).path) }
        let (token, isNew) = CSRF.token(of: request)
        var view = SignInPageView(next: next, csrf: token)
        view.isOwners = context.caller.kind == .owner
        var response = try HTML(view).response(from: request, context: context)
        if isNew { response.headers.append(HTTPField(name: .setCookie, value: CSRF.cookie(token))) }
        return response
    }

    private func signIn(_ request: Request, _ context: SiteContext) async throws -> Response {
        let form = try await CSRF.checkedForm(request, context: context)
        let name = form["name"]?.collapsingSpaces ?? ""
        let next = SiteURL.safeBack(form["next"])
        let address = context.client.address
        do {
            switch try await site.signIns.signIn(name: name, password: form["password"] ?? "", from: address) {
            case .signedIn(let person, let sessionID):
                try await site.record("sign-in", "", by: context, as: person.name)
                var response = Response.redirect(to: next ?? SiteURL.searchRoot(query: nil).path, type: .normal)
                response.headers.append(
                    HTTPField(
                        name: .setCookie, value: SignInCookie.setting(sessionID, secure: context.client.isHTTPS)))
                return response
            case .refused:
                try await site.record("failed sign-in", "as “\(name)”", by: context, as: Caller.visitor.auditName)
                return try again(
                    "That name and password do not match. Check both and try again.", name: name, next: next,
                    status: .unauthorized, request, context)
            }
        } catch let refusal as Refusal {
            var response = try again(
                refusal.description, name: name, next: next, status: .tooManyRequests, request, context)
            if let seconds = refusal.retryAfter { response.headers[.retryAfter] = String(seconds) }
            return response
        }
    }

    /// The sign-in page again, saying why.
    private func again(
        _ message: String, name: String, next: String?, status: HTTPResponse.Status, _ request: Request,
        _ context: SiteContext
    ) throws -> Response {
        var view = SignInPageView(next: next, csrf: CSRF.token(of: request).token, message: message)
        view.name = name
        return try HTML(view, status: status).response(from: request, context: context)
    }

    private func signOut(_ request: Request, _ context: SiteContext) async throws -> Response {
        _ = try await CSRF.checkedForm(request, context: context)
        if let sessionID = request.cookies[SignInCookie.name]?.value, Secrets.isSessionShaped(sessionID) {
            try await site.signIns.signOut(sessionID: sessionID)
            try await site.record("sign-out", "", by: context)
        }
        var response = Response.redirect(to: SiteURL.signIn(next: nil).path, type: .normal)
        response.headers.append(HTTPField(name: .setCookie, value: SignInCookie.clearing))
        return response
    }

    private func account(_ request: Request, _ context: SiteContext) -> HTML {
        let (token, isNew) = CSRF.token(of: request)
        var page = HTML(AccountPageView(caller: context.caller, csrf: token))
        if isNew { page.headers[.setCookie] = CSRF.cookie(token) }
        return page
    }
}

extension Site {
    /// Records a write in the audit trail, with who made it (`actor`: the caller's name unless given, as when
    /// someone signs in) and from where.
    func record(_ action: String, _ detail: String, by context: SiteContext, as actor: String? = nil) async throws {
        try await audit.record(
            AuditEntry(
                actor: actor ?? context.caller.auditName, action: action, detail: detail,
                address: context.client.address))
    }

    /// The sources a caller may search: someone signed out searches the corpus only, which spends no network's
    /// budget.
    func sources(for caller: Caller) -> SourceSet {
        caller.isSignedOut ? sources.choosing([SourceCatalog.Name.corpus.rawValue]) : sources
    }

    /// A search that reaches a live network spends one of the caller's live searches.
    func spendLive(_ chosen: SourceSet, by context: SiteContext) throws {
        if chosen.names.contains(where: { $0 != SourceCatalog.Name.corpus.rawValue }) {
            try spend(.liveSearches, by: context)
        }
    }

    /// Spends one of `kind` from the caller's hourly budget; the owner, alone on their computer, has no budget.
    func spend(_ kind: Budget.Kind, by context: SiteContext) throws {
        let caller = context.caller
        do {
            switch caller.kind {
            case .owner: return
            case .person(let person, let prefix):
                try budget.spend(kind, by: prefix.map { "token:" + $0 } ?? "person:\(person.id)")
            case .visitor, .stranger:
                try budget.spend(kind, by: "address:" + context.client.address, isVisitor: true)
            }
        } catch let refusal as Refusal {
            throw TeamRefusal(refusal)
        }
    }
}
