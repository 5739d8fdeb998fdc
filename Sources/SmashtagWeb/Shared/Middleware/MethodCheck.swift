import HTTPTypes
import Hummingbird

/// Answers 405 with `Allow` when a known path is asked with a method it does not take; the router alone says 404.
struct MethodCheck<Context: RequestContext>: RouterMiddleware {
    /// The paths served, as route patterns (`:name` is any one segment) with the method each takes.
    let routes: [(pattern: [Substring], method: HTTPRequest.Method)]

    init(routes: [Route], files: [String]) {
        self.routes =
            routes.map { (Self.segments($0.pattern), $0.method) } + files.map { (Self.segments("/" + $0), .get) }
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = allowedMethods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            throw HTTPError(.methodNotAllowed, headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        }
    }

    /// The methods the path takes; GET brings HEAD.
    func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = Self.segments(path)
        let methods = routes.filter { Self.matches(segments, $0.pattern) }.map(\.method)
        return methods.contains(.get) ? methods + [.head] : methods
    }

    private static func matches(_ segments: [Substring], _ pattern: [Substring]) -> Bool {
        segments.count == pattern.count && zip(segments, pattern).allSatisfy { $1.hasPrefix(":") || $0 == $1 }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }
}
