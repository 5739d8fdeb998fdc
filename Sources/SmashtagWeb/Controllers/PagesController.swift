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
            router.on(.tweet(tab)) { request, context in try await tweet(request, tab: tab, id: context.parameters.require("id")) }
            router.on(.popularity(tab)) { request, _ in try await popularity(request, tab: tab) }
            router.on(.image(tab)) { request, _ in try viewer(request, tab: tab) }
            router.on(.images(tab)) { request, _ in try await images(request, tab: tab) }
        }
        router.on(.recents) { request, _ in try await recents(request) }
        router.on(.deleteRecent) { request, context in try await deleteRecent(request, context: context) }
    }

    private func search(_ request: Request, tab: Tab, isRoot: Bool) async throws -> HTML {
        let parameters = request.uri.queryParameters
        let back = Self.back(request)
        guard let query = parameters["q"].map(String.init)?.trimmed, !query.isEmpty else {
            return HTML(await searchPage(site.defaultQuery, tab: tab, back: back, isRoot: isRoot, position: .newest))
        }
        if let only = parameters["only"].map(String.init) {
            return try await oneTweet(only, query: query, tab: tab, back: back)
        }
        let position = SearchRequest.Position(since: parameters["since"], before: parameters["before"])
        return HTML(await searchPage(query, tab: tab, back: back, isRoot: isRoot, position: position))
    }

    private func searchPage(_ query: String, tab: Tab, back: String?, isRoot: Bool, position: SearchRequest.Position) async -> SearchPageView {
        let outcome: Result<SearchPage, SearchFailure>
        do {
            outcome = .success(try await site.sessions.fetch(query, at: position, count: Self.pageSize))
        } catch {
            site.logger.info("search failed", metadata: ["query": "\(query)", "error": "\(error)"])
            outcome = .failure(SearchFailure(message: Self.sentence(for: error)))
        }
        let here = isRoot ? SiteURL.searchRoot(query: query).path : SiteURL.search(tab, query: query, back: back).path
        return SearchPageView(query: query, tab: tab, back: back, isRoot: isRoot, outcome: outcome, isNewerOnly: position.sinceID != nil, here: here)
    }

    /// What the person can act on; anything internal becomes a general sentence.
    static func sentence(for error: any Error) -> String {
        switch error {
        case let error as QueryError: error.description
        case let error as XAPIError: error.description
        default: "The search could not be completed. Try again in a moment."
        }
    }

    private func tweet(_ request: Request, tab: Tab, id: String) async throws -> HTML {
        let back = Self.back(request)
        guard let tweet = try await site.database.storedTweet(id: id) else { return missingTweet() }
        let view = MentionsPageView(tweet, tab: tab, back: back, here: SiteURL.tweet(tab, id: id, back: back).path)
        return HTML(view)
    }

    private func popularity(_ request: Request, tab: Tab) async throws -> HTML {
        let parameters = request.uri.queryParameters
        let back = Self.back(request) ?? SiteURL.recents.path
        guard let term = parameters["term"].map(String.init)?.trimmed, !term.isEmpty else {
            return error("Choose a term in Recents to see its popular hashtags and users.", status: .badRequest)
        }
        let table = try await Popularity(database: site.database).table(for: term)
        let view = PopularityPageView(table, tab: tab, back: back, here: SiteURL.popularity(tab, term: term).path)
        return HTML(view)
    }

    /// A list of one tweet (from the images grid), with all the usual navigation and no paging.
    private func oneTweet(_ id: String, query: String, tab: Tab, back: String?) async throws -> HTML {
        guard let tweet = try await site.database.storedTweet(id: id) else { return missingTweet() }
        let page = SearchPage(tweets: [tweet], newer: SearchRequest(query: query), older: nil)
        let here = SiteURL.oneTweet(tab, query: query, id: id, back: back).path
        return HTML(SearchPageView(query: query, tab: tab, back: back, isRoot: false, outcome: .success(page), isNewerOnly: false, here: here))
    }

    private func images(_ request: Request, tab: Tab) async throws -> HTML {
        let parameters = request.uri.queryParameters
        guard let query = parameters["q"].map(String.init)?.trimmed, let newest = parameters["newest"], let oldest = parameters["oldest"] else {
            return error("There are no results to show the images of.", status: .badRequest)
        }
        let back = Self.back(request)
        let tweets = try await site.database.storedTweets(term: query, newest: String(newest), oldest: String(oldest))
        let here = SiteURL.images(tab, query: query, newest: String(newest), oldest: String(oldest), back: back).path
        return HTML(ImagesPageView(query: query, tweets: tweets, tab: tab, back: back, here: here))
    }

    private func viewer(_ request: Request, tab: Tab) throws -> HTML {
        let parameters = request.uri.queryParameters
        guard let source = parameters["src"].map(String.init).flatMap(SafeURL.image) else {
            return error("There is no image to show here.", status: .badRequest)
        }
        let back = Self.back(request)
        return HTML(ViewerPageView(chrome: Chrome(title: "Image", tab: tab, back: back, isRoot: false), source: source))
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
        SiteURL.safeBack(request.uri.queryParameters["back"].map(String.init))
    }

    private func missingTweet() -> HTML {
        error("This tweet is not among the tweets fetched for your recent searches.", status: .notFound)
    }

    /// The error page, with its status kept.
    func error(_ message: String, status: HTTPResponse.Status) -> HTML {
        HTML(ErrorPageView(chrome: Chrome(title: "Not available", tab: .search, isRoot: false), message: message), status: status)
    }
}

extension String {
    var trimmed: String { split(whereSeparator: \.isWhitespace).joined(separator: " ") }
}
