import AppStore
import Foundation
import Hummingbird
import LiveIndex
import Logging
import Posts
import SmashtagApp
import Team

/// The Search page (the tab's root and pushed under either tab), a single post from the Images grid, the Images grid,
/// and the page's JSON twin `/api/search`.
struct SearchController: Sendable {
    let site: Site
    /// Twenty rows, as X's and Mastodon's own clients load at a time: a phone shows seven or eight, the rest come as
    /// the person asks (Older posts, pull to refresh), and the page stays under 3 KB over the wire.
    static let pageSize = 20

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.home) { _, _ in Response.redirect(to: SiteURL.searchRoot(query: nil).path) }
        router.on(.searchRoot) { request, context in try await search(request, context, tab: .search, isRoot: true) }
        // Each tab's pages by name: the router does not go back to try a parameter once a fixed segment matched.
        for tab in Tab.allCases {
            router.on(.search(tab)) { request, context in try await search(request, context, tab: tab, isRoot: false) }
            router.on(.images(tab)) { request, context in try await images(request, context, tab: tab) }
        }
        router.on(.apiSearch) { request, context in try await apiSearch(request, context) }
    }

    private func search(_ request: Request, _ context: SiteContext, tab: Tab, isRoot: Bool) async throws -> HTML {
        let parameters = context.queryString
        let search = SearchParameters(
            parameters, cookie: request.cookies[SearchParameters.cookieName]?.value,
            offered: site.sources(for: context.caller))
        let back = parameters.back
        let recording = RequestSite.mayRecord(request) ? context.caller.holder : nil
        guard let query = search.query else {
            let place = SearchPageView.Place(
                tab: tab, back: back, isRoot: isRoot, here: SiteURL.searchRoot(query: nil).path)
            return HTML(
                try await searchPage(site.defaultQuery, place: place, search: search, recording: recording, context))
        }
        if let only = parameters["only"].flatMap(PostKey.init) {
            return try await onePost(only, query: query, tab: tab, back: back, search: search, context)
        }
        let here = isRoot ? SiteURL.searchRoot(query: query).path : SiteURL.search(tab, query: query, back: back).path
        let place = SearchPageView.Place(tab: tab, back: back, isRoot: isRoot, here: here)
        var page = HTML(try await searchPage(query, place: place, search: search, recording: recording, context))
        if recording != nil, search.isNewChoice, !search.sources.sources.isEmpty {
            page.headers[.setCookie] = search.rememberingCookie
        }
        return page
    }

    /// `recording`: whose Recents the search goes into, counted; nil for none (`RequestSite.mayRecord`, a visitor).
    private func searchPage(
        _ query: String, place: SearchPageView.Place, search: SearchParameters, recording: Holder?,
        _ context: SiteContext
    ) async throws -> SearchPageView {
        let outcome: Result<MergedPage, SearchFailure>
        var hidden = 0
        if search.sources.sources.isEmpty {
            outcome = .failure(SearchFailure(messages: ["Choose at least one source to search."]))
        } else {
            try site.spendLive(search.sources, by: context)
            do {
                let page = try await site.sessions.fetch(
                    query, from: search.sources, at: search.position, count: Self.pageSize,
                    for: recording ?? .owner, recording: recording != nil)
                let shown = try await site.shown(page, to: context.caller)
                hidden = page.posts.count - shown.posts.count
                outcome = .success(shown)
            } catch let error as any LocalOutage {
                throw error  // the database is away: a 503 page with when to try again
            } catch let error as SourcesFailed where error.isOutage {
                throw error
            } catch {
                site.logger.info("search failed", metadata: ["query": "\(query)", "error": "\(error)"])
                outcome = .failure(SearchFailure(error))
            }
        }
        var view = SearchPageView(
            query: query, place: place, sources: search.choice, outcome: outcome,
            isNewerOnly: search.position.isNewer)
        view.isUnrecorded = recording == nil && context.caller.holder != nil
        view.signInOnly = hidden
        if let live = site.liveIndex, search.sources.names.contains(SourceCatalog.Name.corpus.rawValue) {
            view.liveIndex = LiveIndexNote(live.status.current, following: live.status.isFollowing)
        }
        return view
    }

    /// A list of one post (from the images grid), with all the usual navigation and no paging.
    private func onePost(
        _ key: PostKey, query: String, tab: Tab, back: String?, search: SearchParameters, _ context: SiteContext
    ) async throws
        -> HTML
    {
        let post: Post
        switch try await site.storedPost(key, shownTo: context.caller) {
        case .post(let shown): post = shown
        case .missing: return PostController.missingPost
        case .signInOnly: return PostController.signInOnly
        }
        let here = SiteURL.onePost(tab, query: query, key: key, back: back).path
        let place = SearchPageView.Place(tab: tab, back: back, isRoot: false, here: here)
        return HTML(
            SearchPageView(
                query: query, place: place, sources: search.choice,
                outcome: .success(MergedPage(posts: [post])), isNewerOnly: false))
    }

    private func images(_ request: Request, _ context: SiteContext, tab: Tab) async throws -> HTML {
        let parameters = context.queryString
        guard let query = parameters.text("q"), let newest = parameters.time("newest"),
            let oldest = parameters.time("oldest")
        else {
            return .error("There are no results to show the images of.", status: .badRequest)
        }
        let back = parameters.back
        let posts = try await site.shown(
            try await site.database.storedPosts(term: query, newest: newest, oldest: oldest), to: context.caller)
        let here = SiteURL.images(tab, query: query, newest: newest, oldest: oldest, back: back).path
        return HTML(ImagesPageView(query: query, posts: posts, tab: tab, back: back, here: here))
    }

    private func apiSearch(_ request: Request, _ context: SiteContext) async throws -> Response {
        let parameters = context.queryString
        let search = SearchParameters(parameters, cookie: nil, offered: site.sources(for: context.caller))
        guard let query = search.query else {
            return try JSONBody(APIError(error: "Give a query: /api/search?q=…"), status: .badRequest).response
        }
        guard let count = Self.count(parameters["count"]) else {
            let sentence = "count must be a whole number from 1 to \(SearchRequest.maximumCount)."
            return try JSONBody(APIError(error: sentence), status: .badRequest).response
        }
        guard !search.sources.sources.isEmpty else {
            let names = site.sources.names.joined(separator: ", ")
            return try JSONBody(
                APIError(error: "source names none of this server's sources: \(names)."),
                status: .badRequest
            ).response
        }
        try site.spendLive(search.sources, by: context)
        let recording = RequestSite.mayRecord(request) ? context.caller.holder : nil
        do {
            let page = try await site.shown(
                try await site.sessions.fetch(
                    query, from: search.sources, at: search.position, count: count, for: recording ?? .owner,
                    recording: recording != nil), to: context.caller)
            let continuation = PageContinuation(page, sources: search.choice)
            let unoffered = search.unoffered.map { name in
                SourceFailure(
                    source: name, title: name,
                    error: SourceNotOffered(name: name, whenSignedIn: site.sources.names.contains(name)))
            }
            let document = SearchDocument(
                query: query, posts: page.posts, newer: continuation.newer,
                older: continuation.older, errors: (page.failures + unoffered).map(SearchDocument.SourceError.init))
            return JSONBody<String>.response(json: document.json(postJSON: site.postJSON.json(for:)))
        } catch let error as QueryError {
            return try JSONBody(APIError(error: error.description), status: .badRequest).response
        } catch let error as any LocalOutage {
            throw error  // the database is away: a 503 with when to try again (ErrorPages)
        } catch let error as SourcesFailed where error.isOutage {
            throw error
        } catch let error as SourcesFailed {
            let errors = error.failures.map(SearchDocument.SourceError.init)
            return try JSONBody(APIError(error: error.description, errors: errors), status: .badGateway).response
        } catch {
            return try JSONBody(APIError(error: SourceFailure.sentence(for: error)), status: .badGateway).response
        }
    }

    /// The page size asked for: 20 when not given, nil when it is not 1…100 (said, not quietly clamped).
    private static func count(_ text: String?) -> Int? {
        guard let text else { return 20 }
        return Int(text).flatMap { (1...SearchRequest.maximumCount).contains($0) ? $0 : nil }
    }
}

/// A search that failed, as sentences for the page (never an internal description).
struct SearchFailure: Error, Sendable {
    let messages: [String]

    init(messages: [String]) {
        self.messages = messages
    }

    /// What the person can act on, a sentence per failing source; anything internal becomes a general sentence.
    init(_ error: any Error) {
        messages = (error as? SourcesFailed)?.failures.map(\.message) ?? [SourceFailure.sentence(for: error)]
    }
}

/// A source `source=` names that this server does not offer the caller, said in the answer's `errors`.
struct SourceNotOffered: ExplainedError {
    let name: String
    /// Offered to people signed in, not to visitors.
    let whenSignedIn: Bool

    var description: String {
        whenSignedIn
            ? "“\(name)” is searched here only for people signed in."
            : "“\(name)” is not a source this server offers (not configured here)."
    }
}
