import Foundation
import Hummingbird

/// Refuses an address that cannot be read with a 400: a path with control characters (NUL and the rest, raw or
/// percent-encoded) or broken percent-encoding, and a query string that does not decode as a form
/// (a `RefusedRequest` whose sentence says where). A NUL cuts a file name short, so `/icon-192.png%00.txt` would
/// serve the icon under another type. The query string, decoded here, is the routes' (`SiteContext.queryString`):
/// read once per request.
struct PathCheck: RouterMiddleware {
    func handle(
        _ request: Request, context: SiteContext, next: (Request, SiteContext) async throws -> Response
    ) async throws -> Response {
        guard Self.isAcceptable(request.uri.path) else { throw HTTPError(.badRequest) }
        var context = context
        if let query = request.uri.query { context.queryString = try QueryString(decoding: Substring(query)) }
        return try await next(request, context)
    }

    static func isAcceptable(_ path: String) -> Bool {
        guard let decoded = path.removingPercentEncoding else { return false }
        return !decoded.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
