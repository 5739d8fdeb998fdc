import AppStore
import Corpus
import Hummingbird
import Posts

/// The probes a load balancer or an orchestrator asks: `/healthz`, whether the process answers at all (it never
/// touches the database, so a server whose database is away is still alive and is not restarted for it), and
/// `/readyz`, whether it can serve — its database reachable and migrated to this build's schema, its corpus
/// readable — or 503 with the reason, so traffic goes to another server until it can.
struct HealthController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.health) { _, _ in JSONBody(Probe(status: "ok")) }
        router.on(.readiness) { _, _ in try await readiness() }
    }

    private func readiness() async throws -> Response {
        guard let reason = await reasonNotReady() else { return try JSONBody(Probe(status: "ready")).response }
        var response = try JSONBody(Probe(status: "unavailable", reason: reason), status: .serviceUnavailable).response
        response.headers[.retryAfter] = "5"
        return response
    }

    /// Nil when the server can serve; otherwise what stops it, in one sentence.
    private func reasonNotReady() async -> String? {
        do {
            guard try await site.database.isMigrated() else {
                return "The database's schema is not this server's yet: another server may be migrating it."
            }
        } catch {
            return "The database cannot be reached: \(Self.sentence(error))"
        }
        guard let corpus = site.corpus else { return nil }
        do {
            _ = try await corpus.info(Self.probeKey)
        } catch {
            return "The corpus cannot be read: \(Self.sentence(error))"
        }
        return nil
    }

    /// A key no one writes: reading it costs one indexed lookup.
    private static let probeKey = "readiness probe"

    /// What the error says for people, or a general sentence: never its internals.
    private static func sentence(_ error: any Error) -> String {
        (error as? any ExplainedError)?.description ?? "it answered with an error (the server's log has it)."
    }
}

/// What a probe answers: `ok` or `ready`, or `unavailable` with the reason.
struct Probe: Encodable {
    let status: String
    var reason: String? = nil
}
