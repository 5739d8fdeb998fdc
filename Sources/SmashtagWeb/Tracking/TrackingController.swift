import AppStore
import Foundation
import Hummingbird
import Posts

/// Starting and stopping the tracking of a term: the forms on Recents and Popularity (CSRF double submit and the
/// origin check, then back to the page), and the JSON API — `GET /api/tracking`, `POST /api/tracking` with
/// `{"term", "every", "sources", "backfill"}`, `POST /api/tracking/delete` with `{"term"}` — which takes JSON bodies
/// only (a form on another site cannot send one) from the same origin or from a client that is not a browser.
struct TrackingController: Sendable {
    let site: Site

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.on(.track) { request, context in try await form(request, context: context, track: true) }
        router.on(.untrack) { request, context in try await form(request, context: context, track: false) }
        router.on(.apiTracking) { _, _ in JSONBody(try await TrackedTerms(database: site.database).all()) }
        router.on(.apiTrack) { request, context in try await apiTrack(request, context: context) }
        router.on(.apiUntrack) { request, context in try await apiUntrack(request, context: context) }
    }

    private var tracked: TrackedTerms { TrackedTerms(database: site.database) }

    private func form(_ request: Request, context: BasicRequestContext, track: Bool) async throws -> Response {
        let form = try await URLEncodedFormDecoder().decode([String: String].self, from: request, context: context)
        guard CSRF.isSameOrigin(request) else {
            return try HTML.error("This request came from another site and was refused.", status: .forbidden)
                .response(from: request, context: context)
        }
        guard CSRF.isValid(form[CSRF.fieldName], for: request) else {
            return try HTML.error("This form has expired. Go back, reload the page and try again.", status: .forbidden)
                .response(from: request, context: context)
        }
        guard let term = form["term"]?.collapsingSpaces, !term.isEmpty else {
            return try HTML.error("There is no term to track.", status: .badRequest).response(from: request, context: context)
        }
        do {
            if track {
                try await tracked.track(term, TrackingPlan(every: try TrackingPlan.interval(form["every"] ?? "5m")))
            } else {
                _ = try await tracked.untrack(term)
            }
        } catch let error as TrackingError {
            return try HTML.error(error.description, status: .badRequest).response(from: request, context: context)
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
    }

    /// An interval written as `"5m"` or as a number of seconds.
    private struct Interval: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Int.self) { text = "\(seconds)s" } else {
                text = try container.decode(String.self)
            }
        }
    }

    private struct UntrackRequest: Decodable {
        let term: String
    }

    private func apiTrack(_ request: Request, context: BasicRequestContext) async throws -> Response {
        do {
            let body = try await decode(TrackRequest.self, request, context: context)
            let sources = try body.sources.map(checked)
            let plan = TrackingPlan(
                every: try TrackingPlan.interval(body.every?.text ?? "5m"), sources: sources, backfill: body.backfill ?? 0)
            _ = try SearchQuery(parsing: body.term)
            return try JSONBody(try await tracked.track(body.term, plan), status: .created).response
        } catch let refused as Refused {
            return refused.response
        } catch let error as any ExplainedError {
            return try JSONBody(APIError(error: error.description), status: .badRequest).response
        }
    }

    private func apiUntrack(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body: UntrackRequest
        do { body = try await decode(UntrackRequest.self, request, context: context) } catch let refused as Refused {
            return refused.response
        }
        guard try await tracked.untrack(body.term) else {
            return try JSONBody(APIError(error: "“\(body.term)” is not tracked."), status: .notFound).response
        }
        let answer: [String: String] = ["untracked": body.term]
        return try JSONBody(answer).response
    }

    /// The sources named, each one this server offers.
    private func checked(_ names: [String]) throws -> [String] {
        for name in names where !site.sources.names.contains(name) {
            throw APIRefusal("“\(name)” is not a source this server offers: \(site.sources.names.joined(separator: ", ")).")
        }
        return names
    }

    /// A request refused before it is read, with the answer to give.
    private struct Refused: Error {
        let response: Response
    }

    /// The JSON body; `Refused` for another site's request or a body that is not the JSON object asked for.
    private func decode<Body: Decodable>(_ type: Body.Type, _ request: Request, context: BasicRequestContext)
        async throws -> Body
    {
        guard CSRF.isSameOrigin(request) else {
            throw Refused(response: try JSONBody(APIError(error: "This request came from another site."), status: .forbidden).response)
        }
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            let sentence = "Send a JSON object with Content-Type: application/json."
            throw Refused(response: try JSONBody(APIError(error: sentence), status: .unsupportedMediaType).response)
        }
        do {
            return try await JSONDecoder().decode(Body.self, from: request, context: context)
        } catch {
            let sentence = "The body is not the JSON object this takes: {\"term\": \"#swift\", \"every\": \"5m\"}."
            throw Refused(response: try JSONBody(APIError(error: sentence), status: .badRequest).response)
        }
    }
}

/// A request the API refuses, in one sentence.
struct APIRefusal: ExplainedError {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
