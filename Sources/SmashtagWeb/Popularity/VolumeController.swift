import Foundation
import Hummingbird
import Posts
import SmashtagApp

/// How much each network the caller may search says there is for a term before collecting it: the Volume page
/// (linked from Popularity) and its JSON twin `/api/volume`. Each asks the networks live, so each spends one of the
/// caller's live searches; nothing is stored or counted.
struct VolumeController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        for tab in Tab.allCases {
            router.on(.volume(tab)) { request, context in try await page(request, context, tab: tab) }
        }
        router.on(.apiVolume) { request, context in try await api(request, context) }
    }

    private func page(_ request: Request, _ context: SiteContext, tab: Tab) async throws -> HTML {
        let parameters = context.queryString
        guard let term = parameters.text("term") else {
            return .error("Choose a term to see how much each network says there is.", status: .badRequest)
        }
        let report = try await ask(term, context)
        return HTML(VolumePageView(term: term, report: report, tab: tab, back: parameters.back))
    }

    private func api(_ request: Request, _ context: SiteContext) async throws -> Response {
        guard let term = context.queryString.text("term") else {
            throw RefusedRequest(.badRequest, "Give a term: /api/volume?term=%23swift.")
        }
        let report = try await ask(term, context)
        return JSONBody<String>.response(json: report.json(term: term))
    }

    /// The networks this caller may search (not the corpus: it is what collecting fills), asked at once.
    private func ask(_ term: String, _ context: SiteContext) async throws -> VolumeReport {
        _ = try SearchTermKey(term)
        let networks = site.sources(for: context.caller).choosing(
            SourceCatalog.Name.allCases.filter { $0 != .corpus }.map(\.rawValue))
        try site.spendLive(networks, by: context)
        return await VolumeReport.ask(term, of: networks, naming: false)
    }
}
