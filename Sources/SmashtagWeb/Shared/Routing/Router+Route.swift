import Hummingbird
import Team

extension Router where Context == SiteContext {
    /// Registers a handler for a named route, with the route's own method, behind the route's `access`: a caller
    /// who may not use it never reaches the handler.
    @discardableResult
    func on(
        _ route: Route, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        let access = route.access
        return on(RouterPath(route.pattern), method: route.method) { request, context -> Response in
            if let signIn = try Admission.check(access, request, context) { return signIn }
            return try await handler(request, context).response(from: request, context: context)
        }
    }
}

/// What a caller who may not use a route is answered: someone signed out is sent to sign in (a page) or told to
/// (401, under `/api/`); someone signed in with too small a role is refused (403), in one sentence each.
enum Admission {
    /// Nil when the caller may go on; the redirect to the sign-in page for a page they must sign in for.
    static func check(_ access: Access, _ request: Request, _ context: SiteContext) throws -> Response? {
        if let refusal = context.credentialRefusal { throw TeamRefusal(refusal) }
        let caller = context.caller
        guard !caller.may(access) else { return nil }
        if access == .thisComputerOrAdmin, context.client.isThisComputer { return nil }
        guard caller.isSignedOut else { throw TeamRefusal(.needs(access)) }
        if request.method == .get || request.method == .head, !Route.answersJSON(request.uri.path[...]) {
            return Response.redirect(to: SiteURL.signIn(next: request.uri.description).path, type: .normal)
        }
        throw TeamRefusal(.signInNeeded)
    }
}

/// The team's refusals (`Refusal`) as HTTP errors: their status, `Retry-After` for a 429, their sentence.
struct TeamRefusal: ExplainedHTTPError {
    let refusal: Refusal

    init(_ refusal: Refusal) {
        self.refusal = refusal
    }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: refusal.status) }
    var sentence: String { refusal.description }
    var headers: HTTPFields {
        refusal.retryAfter.map { [.retryAfter: String($0)] } ?? [:]
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headers)
    }
}

/// What some requests ask beyond their route's `access`; the pages show a control only to callers who may use it.
enum Needs {
    /// A network's or a popularity table's CSV and GEXF, a dataset.
    static let export = Access.researcher
    /// A dataset with people's names.
    static let identified = Access.admin
    /// Untracking a term someone else tracks.
    static let anyonesTracking = Access.admin

    /// Throws the refusal for a caller who may not: 401 signed out, 403 signed in.
    static func check(_ access: Access, _ context: SiteContext) throws {
        guard !context.caller.may(access) else { return }
        throw TeamRefusal(context.caller.isSignedOut ? .signInNeeded : .needs(access))
    }
}
