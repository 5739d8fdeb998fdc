import Hummingbird

/// What a route is given beside the request: Hummingbird's own context, and the query string read once, as a form
/// (`PathCheck` decodes it before any route runs, refusing a broken one with a 400).
struct SiteContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The request's query string, decoded; empty until `PathCheck` has read it.
    var queryString = QueryString.empty

    init(source: Source) {
        coreContext = .init(source: source)
    }
}
