import Hummingbird
import Posts
import SmashtagApp
import Team

/// A post's thread, the page and its JSON twin: from the corpus when it holds the post, else from the post's network
/// for someone who may search live networks (which spends one of their live searches, as a search does).
struct ThreadController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        for tab in Tab.allCases {
            router.on(.thread(tab)) { _, context in try await page(context, tab: tab) }
        }
        router.on(.apiThread) { _, context in try await api(context) }
    }

    private func page(_ context: SiteContext, tab: Tab) async throws -> HTML {
        let key = try PostController.key(context)
        let parameters = context.queryString
        let thread = try await thread(key, after: try Self.after(context), context: context)
        let here = SiteURL.thread(tab, key, after: parameters["after"], back: parameters.back).path
        let kept = try await site.storedPost(key, shownTo: context.caller)
        let opensMentions = if case .post = kept { true } else { false }
        return HTML(
            ThreadPageView(thread, tab: tab, back: parameters.back, here: here, opensMentions: opensMentions))
    }

    private func api(_ context: SiteContext) async throws -> Response {
        let key = try PostController.key(context)
        let thread = try await thread(key, after: try Self.after(context), context: context)
        let last = thread.moreReplies > 0 ? thread.replies.last?.item.id : nil
        let next = last.map { Route.apiThread.path(key) + "?after=" + URLQuery.encode($0) }
        return JSONBody<String>.response(json: thread.json(next: next))
    }

    /// The reply the previous page ended with; an empty one names none, and is refused.
    private static func after(_ context: SiteContext) throws -> String? {
        guard let after = context.queryString["after"] else { return nil }
        guard !after.isEmpty else {
            throw RefusedRequest(
                .badRequest, "“after” names the reply the previous page ended with: it cannot be empty.")
        }
        return after
    }

    /// The thread as the caller may see it, or the sentence why not (404, 403, or each failing source's, 502).
    private func thread(_ key: PostKey, after: String?, context: SiteContext) async throws -> PostThread {
        let corpus = site.sources.choosing([SourceCatalog.Name.corpus.rawValue])
        let live = SourceSet(site.sources(for: context.caller).sources.filter { !corpus.names.contains($0.name) })
        let found: PostThread?
        do {
            if let thread = try await corpus.thread(of: key, after: after) {
                found = thread
            } else if !live.sources.isEmpty {
                try site.spendLive(live, by: context)
                found = try await live.thread(of: key, after: after)
            } else {
                found = nil
            }
        } catch let failure as SourcesFailed where !failure.isOutage {
            throw RefusedRequest(.badGateway, failure.description)
        }
        guard let found else { throw RefusedRequest(.notFound, notFound(key, live: live, caller: context.caller)) }
        guard let shown = try await site.shown(found, to: context.caller) else {
            throw RefusedRequest(.forbidden, PostController.signInOnlySentence)
        }
        return shown
    }

    private func notFound(_ key: PostKey, live: SourceSet, caller: Caller) -> String {
        let network = key.network.displayName
        if !live.sources.isEmpty { return "Neither the corpus nor \(network) has this post: it may have been deleted." }
        if caller.isSignedOut, site.sources.sources.count > 1 {
            return "The corpus has no such post: sign in to ask \(network) for its thread."
        }
        return "The corpus has no such post, and \(network) is not searched here."
    }
}
