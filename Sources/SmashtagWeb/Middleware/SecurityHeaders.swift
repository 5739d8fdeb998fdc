import HTTPTypes
import Hummingbird

/// Headers every response carries: scripts and styles only from Smashtag itself, no framing, no sniffing.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String {
        "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'; object-src 'none'; "
            + "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        // Nothing to other sites; this site's own requests keep a real `Origin` (with `no-referrer` a browser sends
        // `Origin: null` even on its own form posts, and the CSRF check could not tell them from a forgery).
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return response
    }
}
