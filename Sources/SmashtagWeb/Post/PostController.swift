import AppStore
import Foundation
import Hummingbird
import Posts
import Team

/// A post's Mentions page and its JSON twin, the image viewer, and the addresses earlier releases gave an X post
/// (redirected or answered as its post's).
struct PostController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        for tab in Tab.allCases {
            router.on(.post(tab)) { request, context in
                try await post(request, context, tab: tab, key: Self.key(context))
            }
            router.on(.earlierPost(tab)) { request, context in
                let key = PostKey(network: .twitter, id: try context.parameters.require("id"))
                let back = context.queryString.back
                return Response.redirect(to: SiteURL.post(tab, key, back: back).path, type: .permanent)
            }
            router.on(.image(tab)) { request, context in viewer(request, context, tab: tab) }
        }
        router.on(.apiPost) { _, context in try await apiPost(Self.key(context), context) }
        router.on(.apiEarlierPost) { _, context in
            try await apiPost(PostKey(network: .twitter, id: context.parameters.require("id")), context)
        }
    }

    /// What a page says when the post is not in the store.
    static let missingPost = HTML.error(
        "This post is not among the posts fetched for your recent searches.",
        status: .notFound)

    /// What a page says to a visitor about a post whose author shows it only to people signed in.
    static let signInOnlySentence = "This post's author shows their posts only to people who are signed in."
    static let signInOnly = HTML.error(signInOnlySentence, status: .forbidden)

    private func post(_ request: Request, _ context: SiteContext, tab: Tab, key: PostKey) async throws -> HTML {
        let back = context.queryString.back
        switch try await site.storedPost(key, shownTo: context.caller) {
        case .missing: return Self.missingPost
        case .signInOnly: return Self.signInOnly
        case .post(let post):
            return HTML(MentionsPageView(post, tab: tab, back: back, here: SiteURL.post(tab, key, back: back).path))
        }
    }

    /// The post a `:network/:id` route names.
    static func key(_ context: SiteContext) throws -> PostKey {
        let network = try context.parameters.require("network")
        let id = try context.parameters.require("id")
        guard let network = Network(rawValue: network) else { throw HTTPError(.notFound) }
        return PostKey(network: network, id: id.removingPercentEncoding ?? id)
    }

    private func viewer(_ request: Request, _ context: SiteContext, tab: Tab) -> HTML {
        let parameters = context.queryString
        guard let source = parameters["src"].flatMap(SafeURL.image) else {
            return .error("There is no image to show here.", status: .badRequest)
        }
        let alt = parameters["alt"].map { String($0.prefix(MediaItem.altLimit)) }
        let chrome = Chrome(title: "Image", tab: tab, back: parameters.back, isRoot: false)
        return HTML(ViewerPageView(chrome: chrome, source: source, alt: alt))
    }

    private func apiPost(_ key: PostKey, _ context: SiteContext) async throws -> Response {
        switch try await site.storedPost(key, shownTo: context.caller) {
        case .post(let post):
            return JSONBody<String>.response(json: site.postJSON.json(for: post))
        case .missing:
            let sentence = "No \(key.network.rawValue) post \(key.id) among the posts fetched for recent searches."
            return try JSONBody(APIError(error: sentence), status: .notFound).response
        case .signInOnly:
            let sentence = "The author of \(key.network.rawValue) post \(key.id) shows it only to people signed in."
            return try JSONBody(APIError(error: sentence), status: .forbidden).response
        }
    }
}
