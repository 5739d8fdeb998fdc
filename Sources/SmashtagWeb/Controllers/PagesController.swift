import Foundation
import Hummingbird
import Logging
import Smashtag
import Posts
import Twitter

/// The pages of SPEC §2: Search (tab root and pushed), Mentions, the image viewer, the Images grid, Recents and
/// Popularity, each under the tab it was opened in.
struct PagesController: Sendable {
    let site: Site
    static let pageSize = 25

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.on(.home) { _, _ in Response.redirect(to: SiteURL.searchRoot(query: nil).path) }
        router.on(.searchRoot) { request, _ in try await search(request, tab: .search, isRoot: true) }
        // Each tab's pages by name: the router does not go back to try a parameter once a fixed segment matched.
        for tab in Tab.allCases {
            router.on(.search(tab)) { request, _ in try await search(request, tab: tab, isRoot: false) }
            router.on(.post(tab)) { request, context in try await post(request, tab: tab, key: Self.postKey(context)) }
            router.on(.tweet(tab)) { request, context in
                let key = PostKey(network: .twitter, id: try context.parameters.require("id"))
                return Response.redirect(to: SiteURL.post(tab, key, back: Self.back(request)).path, type: .permanent)
            }
            router.on(.popularity(tab)) { request, _ in try await popularity(request, tab: tab) }
            router.on(.trend(tab)) { request, _ in try await trend(request, tab: tab) }
            router.on(.image(tab)) { request, _ in try viewer(request, tab: tab) }
            router.on(.images(tab)) { request, _ in try await images(request, tab: tab) }
        }
        router.on(.recents) { request, _ in try await recents(request) }
        router.on(.deleteRecent) { request, context in try await deleteRecent(request, context: context) }
    }

    private func search(_ request: Request, tab: Tab, isRoot: Bool) async throws -> HTML {
        let search = SearchParameters(request, offered: site.sources)
        let back = Self.back(request)
        guard let query = search.query, !query.isEmpty else {
            let place = SearchPageView.Place(tab: tab, back: back, isRoot: isRoot, here: SiteURL.searchRoot(query: nil).path)
            return HTML(await searchPage(site.defaultQuery, place: place, search: search))
        }
        if let only = request.queryString["only"].flatMap(PostKey.init) {
            return try await onePost(only, query: query, tab: tab, back: back, search: search)
        }
        let here = isRoot ? SiteURL.searchRoot(query: query).path : SiteURL.search(tab, query: query, back: back).path
        var page = HTML(await searchPage(query, place: SearchPageView.Place(tab: tab, back: back, isRoot: isRoot, here: here), search: search))
        if search.isNewChoice, !search.sources.sources.isEmpty { page.headers[.setCookie] = search.rememberingCookie }
        return page
    }

    private func searchPage(_ query: String, place: SearchPageView.Place, search: SearchParameters) async -> SearchPageView {
        let outcome: Result<MergedPage, SearchFailure>
        if search.sources.sources.isEmpty {
            outcome = .failure(SearchFailure(messages: ["Choose at least one source to search."]))
        } else {
            do {
                outcome = .success(try await site.sessions.fetch(query, from: search.sources, at: search.position, count: Self.pageSize))
            } catch {
                site.logger.info("search failed", metadata: ["query": "\(query)", "error": "\(error)"])
                outcome = .failure(SearchFailure(messages: Self.sentences(for: error)))
            }
        }
        var view = SearchPageView(query: query, place: place, sources: search.choice, outcome: outcome, isNewerOnly: search.position.isNewer)
        if let live = site.liveIndex, search.sources.names.contains(SourceCatalog.Name.corpus.rawValue) {
            view.liveIndex = LiveIndexNote(live.status.current)
        }
        return view
    }

    /// What the person can act on, a sentence per failing source; anything internal becomes a general sentence.
    static func sentences(for error: any Error) -> [String] {
        if let failed = error as? SourcesFailed { return failed.failures.map(\.message) }
        return [SourceFailure.sentence(for: error)]
    }

    private func post(_ request: Request, tab: Tab, key: PostKey) async throws -> HTML {
        let back = Self.back(request)
        guard let post = try await site.database.storedPost(key) else { return missingPost() }
        let view = MentionsPageView(post, tab: tab, back: back, here: SiteURL.post(tab, key, back: back).path)
        return HTML(view)
    }

    /// The post a `:network/:id` route names.
    static func postKey(_ context: BasicRequestContext) throws -> PostKey {
        let network = try context.parameters.require("network")
        let id = try context.parameters.require("id")
        guard let network = Network(rawValue: network) else { throw HTTPError(.notFound) }
        return PostKey(network: network, id: id.removingPercentEncoding ?? id)
    }

    private func popularity(_ request: Request, tab: Tab) async throws -> HTML {
        let parameters = request.queryString
        let back = Self.back(request) ?? SiteURL.recents.path
        guard let term = parameters["term"]?.trimmed, !term.isEmpty else {
            return error("Choose a term in Recents to see its popular hashtags and users.", status: .badRequest)
        }
        let overview = try await Popularity(database: site.database).overview(for: term)
        let view = PopularityPageView(overview, tab: tab, back: back, here: SiteURL.popularity(tab, term: term).path)
        return HTML(view)
    }

    private func trend(_ request: Request, tab: Tab) async throws -> HTML {
        let parameters = request.queryString
        let back = Self.back(request)
        switch try await TrendParameters.series(parameters, in: site.database) {
        case .failure(let problem): return error(problem.message, status: problem.status)
        case .success(let series): return HTML(TrendPageView(series, end: Self.time(parameters["end"]), tab: tab, back: back))
        }
    }

    /// A list of one post (from the images grid), with all the usual navigation and no paging.
    private func onePost(_ key: PostKey, query: String, tab: Tab, back: String?, search: SearchParameters) async throws -> HTML {
        guard let post = try await site.database.storedPost(key) else { return missingPost() }
        let page = MergedPage(posts: [post])
        let place = SearchPageView.Place(tab: tab, back: back, isRoot: false, here: SiteURL.onePost(tab, query: query, key: key, back: back).path)
        return HTML(SearchPageView(query: query, place: place, sources: search.choice, outcome: .success(page), isNewerOnly: false))
    }

    private func images(_ request: Request, tab: Tab) async throws -> HTML {
        let parameters = request.queryString
        guard let query = parameters["q"]?.trimmed, let newest = Self.time(parameters["newest"]),
              let oldest = Self.time(parameters["oldest"]) else {
            return error("There are no results to show the images of.", status: .badRequest)
        }
        let back = Self.back(request)
        let posts = try await site.database.storedPosts(term: query, newest: newest, oldest: oldest)
        let here = SiteURL.images(tab, query: query, newest: newest, oldest: oldest, back: back).path
        return HTML(ImagesPageView(query: query, tweets: posts, tab: tab, back: back, here: here))
    }

    /// A time in milliseconds since 1970, as the images link gives it.
    private static func time(_ text: String?) -> Date? {
        text.flatMap { Int64($0) }.map(Date.init(millisecondsSince1970:))
    }

    private func viewer(_ request: Request, tab: Tab) throws -> HTML {
        let parameters = request.queryString
        guard let source = parameters["src"].flatMap(SafeURL.image) else {
            return error("There is no image to show here.", status: .badRequest)
        }
        let back = Self.back(request)
        let alt = parameters["alt"].map { String($0.prefix(MediaItem.altLimit)) }
        return HTML(ViewerPageView(chrome: Chrome(title: "Image", tab: tab, back: back, isRoot: false), source: source, alt: alt))
    }

    private func recents(_ request: Request) async throws -> HTML {
        let (token, isNew) = CSRF.token(of: request)
        let view = RecentsPageView(terms: try await Recents(database: site.database).terms(), csrf: token)
        var page = HTML(view)
        if isNew { page.headers[.setCookie] = CSRF.cookie(token) }
        return page
    }

    private func deleteRecent(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let form = try await URLEncodedFormDecoder().decode([String: String].self, from: request, context: context)
        guard CSRF.isSameOrigin(request) else {
            return try error("This request came from another site and was refused.", status: .forbidden).response(from: request, context: context)
        }
        guard CSRF.isValid(form[CSRF.fieldName], for: request) else {
            return try error("This form has expired. Go back, reload the page and try again.", status: .forbidden).response(from: request, context: context)
        }
        if let term = form["term"] { try await Recents(database: site.database).delete(term) }
        return Response.redirect(to: SiteURL.recents.path, type: .normal)
    }

    /// Where the back control goes: only ever a path on this site.
    private static func back(_ request: Request) -> String? {
        SiteURL.safeBack(request.queryString["back"])
    }

    private func missingPost() -> HTML {
        error("This post is not among the posts fetched for your recent searches.", status: .notFound)
    }

    /// The error page, with its status kept.
    func error(_ message: String, status: HTTPResponse.Status) -> HTML {
        HTML(ErrorPageView(chrome: Chrome(title: "Not available", tab: .search, isRoot: false), message: message), status: status)
    }
}

extension String {
    var trimmed: String { split(whereSeparator: \.isWhitespace).joined(separator: " ") }
}
