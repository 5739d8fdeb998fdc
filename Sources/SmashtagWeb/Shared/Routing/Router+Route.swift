import Hummingbird

extension Router {
    /// Registers a handler for a named route, with the route's own method.
    @discardableResult
    func on(
        _ route: Route, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        on(RouterPath(route.pattern), method: route.method, use: handler)
    }
}
