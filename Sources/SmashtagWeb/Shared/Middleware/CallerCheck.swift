import HTTPTypes
import Hummingbird
import Team

/// Finds who each request is before any route runs (`Gate`: the sign-in cookie, or `Authorization: Bearer` with a
/// token) and where it came from (`Client`), for the routes' `access` and the pages' controls. A sign-in that has ended
/// is answered 401 in one sentence — a page with the sign-in form, the cookie cleared — except on the sign-in page
/// itself, which must always open; any other token or cookie the store refuses, by the route (`Admission`), so a
/// method the address does not take is still a 405.
struct CallerCheck: RouterMiddleware {
    typealias Context = SiteContext
    let gate: Gate
    let proxies: Client.Proxies

    func handle(
        _ request: Request, context: SiteContext, next: (Request, SiteContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.client = proxies.client(of: request.headers, peer: context.peerAddress)
        if Route.isProbe(request.uri.path[...]) { return try await next(request, context) }
        let cookie = request.cookies[SignInCookie.name]?.value
        do {
            context.caller = try await gate.caller(
                sessionID: cookie, bearer: Self.bearer(request.headers[.authorization]),
                fromThisComputer: context.client.isThisComputer)
        } catch let refusal as Refusal where refusal == .signInEnded {
            guard request.uri.path == Route.signIn.pattern else {
                return try ended(request, context: context)
            }
            context.caller = gate.signedOut
            var response = try await Viewing.$caller.withValue(context.caller) { try await next(request, context) }
            response.headers.append(HTTPField(name: .setCookie, value: SignInCookie.clearing))
            return response
        } catch let refusal as Refusal {
            context.caller = gate.signedOut
            context.credentialRefusal = refusal
        }
        let caller = context.caller
        return try await Viewing.$caller.withValue(caller) { try await next(request, context) }
    }

    /// A sign-in that has ended: 401, the cookie cleared; a page shows the sign-in form to come back here.
    private func ended(_ request: Request, context: SiteContext) throws -> Response {
        var response: Response
        if Route.answersJSON(request.uri.path[...]) {
            response = try JSONBody(APIError(error: Refusal.signInEnded.description), status: .unauthorized).response
        } else {
            let view = SignInPageView(
                next: request.method == .get ? request.uri.description : nil, csrf: CSRF.token(of: request).token,
                message: Refusal.signInEnded.description)
            response = try HTML(view, status: .unauthorized).response(from: request, context: context)
        }
        response.headers.append(HTTPField(name: .setCookie, value: SignInCookie.clearing))
        return response
    }

    /// Why a live stream's caller may not have it (the streams are answered beside the router, so never meet this
    /// middleware); nil when they may.
    static func streamRefusal(
        _ request: HTTPRequest, peer: String?, gate: Gate, proxies: Client.Proxies, access: Access
    ) async -> EarlyRefusal? {
        let client = proxies.client(of: request.headerFields, peer: peer)
        let cookie = request.headerFields[values: .cookie].lazy.compactMap { sessionID(inCookieHeader: $0) }.first
        do {
            let caller = try await gate.caller(
                sessionID: cookie, bearer: bearer(request.headerFields[.authorization]),
                fromThisComputer: client.isThisComputer)
            if caller.may(access) { return nil }
            let refusal = caller.isSignedOut ? Refusal.signInNeeded : Refusal.needs(access)
            return EarlyRefusal(refusal)
        } catch let refusal as Refusal {
            return EarlyRefusal(refusal)
        } catch {
            return EarlyRefusal(
                status: .serviceUnavailable, sentence: ErrorPages<SiteContext>.sentence(for: .serviceUnavailable),
                retryAfter: 5)
        }
    }

    /// The sign-in cookie's value in a `Cookie` header: `a=1; smashtag_session=…`.
    private static func sessionID(inCookieHeader header: String) -> String? {
        for pair in header.split(separator: ";") {
            let pair = pair.trimmingPrefix(" ")
            if pair.hasPrefix(SignInCookie.name + "=") { return String(pair.dropFirst(SignInCookie.name.count + 1)) }
        }
        return nil
    }

    /// The token of `Authorization: Bearer …`; a header in another scheme is not a token and is ignored.
    private static func bearer(_ authorization: String?) -> String? {
        guard let value = authorization, value.count > 7,
            value.prefix(7).lowercased() == "bearer "
        else { return nil }
        return String(value.dropFirst(7).trimmingPrefix(" "))
    }
}

/// Who the page being rendered is for: its chrome shows their account, and its controls only what they may use.
enum Viewing {
    @TaskLocal static var caller = Caller.owner
}

/// The sign-in cookie: the session id, sent only to this site (`SameSite=Lax` lets a link from elsewhere open a
/// page signed in, never post a form), never readable by scripts, only over HTTPS when the page came over HTTPS.
enum SignInCookie {
    static let name = "smashtag_session"

    static func setting(_ sessionID: String, secure: Bool) -> String {
        "\(name)=\(sessionID); Path=/; Max-Age=\(Int(SignInDesk.lasting.components.seconds)); HttpOnly; SameSite=Lax"
            + (secure ? "; Secure" : "")
    }

    static let clearing = "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
}

extension EarlyRefusal {
    init(_ refusal: Refusal) {
        self.init(
            status: HTTPResponse.Status(code: refusal.status), sentence: refusal.description,
            retryAfter: refusal.retryAfter)
    }
}
