import HTTPTypes
import Hummingbird

/// Headers every response carries: scripts and styles only from Smashtag itself, no framing, no sniffing. Video and
/// sound only from this site, and on a page that plays a post's media, from the origins of those media alone.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    /// Made once: every response carries it, and a live stream holds its response's headers while it is open.
    static var policy: String { ContentSecurityPolicy.standard }

    /// The policy of a page whose media play from `mediaSources` (`https://host[:port]` each).
    static func policy(mediaSources: [String]) -> String {
        let media = (["'self'"] + mediaSources).joined(separator: " ")
        return
            "default-src 'self'; img-src 'self' https: data:; media-src \(media); script-src 'self'; style-src 'self'; "
            + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        Self.add(to: &response.headers)
        return response
    }

    static func add(to headers: inout HTTPFields) {
        // A page that plays media set its own, made by `policy(mediaSources:)`; every other response gets this one.
        if headers[.contentSecurityPolicy] == nil { headers[.contentSecurityPolicy] = Self.policy }
        headers[.xContentTypeOptions] = "nosniff"
        // Nothing to other sites; this site's own requests keep a real `Origin` (with `no-referrer` a browser sends
        // `Origin: null` even on its own form posts, and the CSRF check could not tell them from a forgery).
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
    }
}

/// The standard policy, made once (a generic type cannot store a static property).
private enum ContentSecurityPolicy {
    static let standard = SecurityHeaders<SiteContext>.policy(mediaSources: [])
}
