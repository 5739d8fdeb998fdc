import AppStore
import Foundation
import Hummingbird
import LiveIndex
import Posts
import Prometheus
import Telemetry

/// `/metrics`: the process's metrics in Prometheus's text format, for this computer and admins only (`Route.access`).
/// What happens is counted where it happens (requests, searches and their failures, waits for the database, posts
/// the live index brought); what *is* — a source's rate-limit budget left, a tracked term's lateness, the live index's
/// lag — is read off the app's state at each scrape.
struct MetricsController: Sendable {
    let site: Site
    let registry: PrometheusCollectorRegistry
    private let lateness: ScrapedGauges
    private let budgetLeft: ScrapedGauges
    private let budgetLimit: ScrapedGauges
    private let liveIndexLag: ScrapedGauges

    init(site: Site, registry: PrometheusCollectorRegistry) {
        (self.site, self.registry) = (site, registry)
        lateness = ScrapedGauges(
            registry, name: "smashtag_tracker_lateness_seconds",
            help: "How long past its due time each tracked term is (0 when on time).")
        budgetLeft = ScrapedGauges(
            registry, name: "smashtag_source_rate_limit_remaining",
            help: "Requests left in the source's rate-limit window, as its network last said.")
        budgetLimit = ScrapedGauges(
            registry, name: "smashtag_source_rate_limit_limit",
            help: "Requests the source's rate-limit window allows, as its network last said.")
        liveIndexLag = ScrapedGauges(
            registry, name: "smashtag_live_index_lag_seconds",
            help: "How far the live index's last commit is behind the firehose.")
    }

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.metrics) { _, _ in
            await readState()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }

    private func readState() async {
        let now = Date()
        budgetLeft.set(budgets { Double($0.remaining) })
        budgetLimit.set(budgets { Double($0.limit) })
        liveIndexLag.set(site.liveIndex?.status.current?.lag(at: now).map { [([], $0)] } ?? [])
        // A store that does not answer leaves the last figures: the request metrics already show the outage.
        if let terms = try? await TrackedTerms(database: site.database).all() {
            lateness.set(terms.map { ([("term", $0.term)], max(0, now.timeIntervalSince($0.due))) })
        }
    }

    private func budgets(_ figure: (RateLimitBudget.Window) -> Double) -> [(labels: [(String, String)], value: Double)]
    {
        site.sources.sources.compactMap { named in
            named.source.budget?.window.map { ([("source", named.name)], figure($0)) }
        }
    }
}
