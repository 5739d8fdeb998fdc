import Foundation
import Hummingbird

/// Refuses a path with control characters (NUL and the rest, raw or percent-encoded) or broken percent-encoding
/// with a 400: a NUL cuts a file name short, so `/icon-192.png%00.txt` would serve the icon under another type.
struct PathCheck<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isAcceptable(request.uri.path) else { throw HTTPError(.badRequest) }
        return try await next(request, context)
    }

    static func isAcceptable(_ path: String) -> Bool {
        guard let decoded = path.removingPercentEncoding else { return false }
        return !decoded.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
