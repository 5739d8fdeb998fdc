import AppStore
import Exports
import Hummingbird
import Team

/// A term's Network page under either tab, and its exports `/api/popularity/network` (JSON, CSV, GEXF) as files.
struct NetworkController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        for tab in Tab.allCases {
            router.on(.network(tab)) { request, context in try await page(request, context, tab: tab) }
        }
        router.on(.apiNetwork) { request, context in try await export(request, context) }
    }

    private func page(_ request: Request, _ context: SiteContext, tab: Tab) async throws -> HTML {
        let parameters = try NetworkParameters(context.queryString, isPage: true)
        try site.spend(.networks, by: context)
        let network = try await parameters.network(in: site.database)
        return HTML(NetworkPageView(network, tab: tab, back: context.queryString.back))
    }

    /// The file, named for the term and window: a download from the page, a document for a script.
    private func export(_ request: Request, _ context: SiteContext) async throws -> Response {
        let parameters = try NetworkParameters(context.queryString, isPage: false)
        if parameters.format != .json { try Needs.check(Needs.export, context) }
        try site.spend(.networks, by: context)
        let network = try await parameters.network(in: site.database)
        return Download.response(
            NetworkFile.text(network, parameters.format), type: parameters.format.contentType,
            name: NetworkFile.name(network, parameters.format))
    }
}
