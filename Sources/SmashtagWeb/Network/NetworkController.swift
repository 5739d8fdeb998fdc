import AppStore
import Exports
import Hummingbird
import Posts

/// A term's Network page under either tab, and its exports `/api/popularity/network` (JSON, CSV, GEXF) as files.
struct NetworkController: Sendable {
    let site: Site

    func addRoutes(to router: Router<BasicRequestContext>) {
        for tab in Tab.allCases {
            router.on(.network(tab)) { request, _ in try await page(request, tab: tab) }
        }
        router.on(.apiNetwork) { request, _ in try await export(request) }
    }

    private func page(_ request: Request, tab: Tab) async throws -> HTML {
        let parameters = try NetworkParameters(request.queryString, isPage: true)
        let network = try await parameters.network(in: site.database)
        return HTML(NetworkPageView(network, tab: tab, back: request.queryString.back))
    }

    /// The file, named for the term and window: a download from the page, a document for a script.
    private func export(_ request: Request) async throws -> Response {
        let parameters = try NetworkParameters(request.queryString, isPage: false)
        let network = try await parameters.network(in: site.database)
        var headers = HTTPFields()
        headers[.contentType] = parameters.format.contentType
        headers[.contentDisposition] = Download.disposition(NetworkFile.name(network, parameters.format))
        return Response(
            status: .ok, headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: NetworkFile.text(network, parameters.format))))
    }
}

/// A download's `Content-Disposition`: the name as UTF-8 (RFC 6266's `filename*`), which a term's letters may need.
enum Download {
    static func disposition(_ name: String) -> String {
        "attachment; filename*=UTF-8''" + URLQuery.encode(name)
    }
}
