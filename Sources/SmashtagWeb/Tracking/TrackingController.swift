import AppStore
import Foundation
import Hummingbird
import Posts
import Team
import Tracking

/// Starting and stopping the tracking of a term: the forms on Recents and Popularity (CSRF double submit and the
/// origin check, then back to the page), and the JSON API — `GET /api/tracking`, `POST /api/tracking` with
/// `{"term", "every", "sources", "backfill", "keep", "forgetCounts"}`, `POST /api/tracking/delete` with `{"term"}` —
/// which takes JSON bodies only (a form on another site cannot send one) from the same origin or from a client that is
/// not a browser.
struct TrackingController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.track) { request, context in try await form(request, context: context, track: true) }
        router.on(.untrack) { request, context in try await form(request, context: context, track: false) }
        router.on(.apiTracking) { _, _ in JSONBody(try await TrackedTerms(database: site.database).all()) }
        router.on(.apiTrack) { request, context in try await apiTrack(request, context: context) }
        router.on(.apiUntrack) { request, context in try await apiUntrack(request, context: context) }
    }

    private var tracked: TrackedTerms { TrackedTerms(database: site.database) }

    private func form(_ request: Request, context: SiteContext, track: Bool) async throws -> Response {
        let form = try await CSRF.checkedForm(request, context: context)
        guard let term = form["term"]?.collapsingSpaces, !term.isEmpty else {
            throw RefusedRequest(.badRequest, "There is no term to track.")
        }
        do {
            if track {
                let plan = TrackingPlan(every: try TrackingPlan.interval(form["every"] ?? "5m"))
                try await tracked.track(term, plan, by: try context.holder())
                try await site.record("track", "\(term) \(plan.everyText)", by: context)
            } else if try await mayUntrack(term, context), try await tracked.untrack(term) {
                try await site.record("untrack", term, by: context)
            }
        } catch let error as TrackingError {
            throw RefusedRequest(.badRequest, error.description)
        }
        return Response.redirect(to: SiteURL.safeBack(form["back"]) ?? SiteURL.recents.path, type: .normal)
    }

    /// What `POST /api/tracking` takes.
    private struct TrackRequest: Decodable {
        let term: String
        /// `"5m"`, `"30s"`, or seconds.
        let every: Interval?
        let sources: [String]?
        let backfill: Int?
        /// `"90d"`, `"12w"`, `"1y"`: how long the term's posts are kept.
        let keep: String?
        /// With `keep`: the older posts leave the term's counts too.
        let forgetCounts: Bool?
    }

    /// An interval written as `"5m"` or as a number of seconds.
    private struct Interval: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Int.self) {
                text = "\(seconds)s"
            } else {
                text = try container.decode(String.self)
            }
        }
    }

    private struct UntrackRequest: Decodable {
        let term: String
    }

    private func apiTrack(_ request: Request, context: SiteContext) async throws -> Response {
        let body = try await decode(TrackRequest.self, request, context: context)
        do {
            let sources = try body.sources.map(checked)
            let plan = TrackingPlan(
                every: try TrackingPlan.interval(body.every?.text ?? "5m"), sources: sources,
                backfill: body.backfill ?? 0, keepDays: try body.keep.map(TrackingPlan.keepDays),
                forgetsCounts: body.forgetCounts ?? false)
            _ = try SearchQuery(parsing: body.term)
            let term = try await tracked.track(body.term, plan, by: try context.holder())
            try await site.record("track", "\(body.term) \(plan.everyText)", by: context)
            return try JSONBody(term, status: .created).response
        } catch let error as any ExplainedError {
            throw RefusedRequest(.badRequest, error.description)
        }
    }

    private func apiUntrack(_ request: Request, context: SiteContext) async throws -> Response {
        let body = try await decode(UntrackRequest.self, request, context: context)
        guard try await mayUntrack(body.term, context), try await tracked.untrack(body.term) else {
            throw RefusedRequest(.notFound, "“\(body.term)” is not tracked.")
        }
        try await site.record("untrack", body.term, by: context)
        let answer: [String: String] = ["untracked": body.term]
        return try JSONBody(answer).response
    }

    /// Whether the caller may untrack the term: who tracked it, or an admin (false when it is not tracked); a 403
    /// that names who tracked it otherwise.
    private func mayUntrack(_ term: String, _ context: SiteContext) async throws -> Bool {
        guard let tracking = try await tracked.term(term) else { return false }
        if context.caller.may(Needs.anyonesTracking) || tracking.trackedBy == context.caller.holder { return true }
        let who = tracking.trackedByName.map { "\($0) tracks “\(term)”" } ?? "Someone else tracks “\(term)”"
        throw RefusedRequest(.forbidden, "\(who): only they or an admin can untrack it.")
    }

    /// The sources named, each one this server offers.
    private func checked(_ names: [String]) throws -> [String] {
        for name in names where !site.sources.names.contains(name) {
            throw RefusedRequest(
                .badRequest,
                "“\(name)” is not a source this server offers: \(site.sources.names.joined(separator: ", ")).")
        }
        return names
    }

    /// The JSON body; refused for another site's request or a body that is not the JSON object asked for.
    private func decode<Body: Decodable>(
        _ type: Body.Type, _ request: Request, context: SiteContext
    ) async throws -> Body {
        guard RequestSite.isSameOrigin(request) else {
            throw RefusedRequest(.forbidden, "This request came from another site.")
        }
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            throw RefusedRequest(.unsupportedMediaType, "Send a JSON object with Content-Type: application/json.")
        }
        do {
            return try await JSONDecoder().decode(Body.self, from: request, context: context)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw error  // a body past the limit is said as such (413), not as a malformed one
        } catch {
            throw RefusedRequest(
                .badRequest, "The body is not the JSON object this takes: {\"term\": \"#swift\", \"every\": \"5m\"}.")
        }
    }
}
