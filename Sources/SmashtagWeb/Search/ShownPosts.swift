import AppStore
import Corpus
import Posts
import Team

/// What a caller may be shown of posts, under the consent rules as they are now (`Caller.shown`): every route that
/// gives out posts goes through here.
extension Site {
    /// A kept post (or, when no search kept it, the corpus's) as the caller may see it.
    enum ShownPost {
        case post(Post)
        /// Not among the posts kept for recent searches, nor in the corpus.
        case missing
        /// Its author shows it only to people signed in, and the caller is not.
        case signInOnly
    }

    func storedPost(_ key: PostKey, shownTo caller: Caller) async throws -> ShownPost {
        guard let stored = try await keptOrCorpusPost(key) else { return .missing }
        guard let post = caller.shown(stored, try await database.consentRules()) else { return .signInOnly }
        return .post(post)
    }

    /// A post a search kept, else the corpus's: a thread reaches corpus posts no search kept, and their pages open.
    private func keptOrCorpusPost(_ key: PostKey) async throws -> Post? {
        if let kept = try await database.storedPost(key) { return kept }
        guard let found = try await corpus?.post(id: key.id), found.network == key.network else { return nil }
        return found
    }

    func shown(_ page: MergedPage, to caller: Caller) async throws -> MergedPage {
        caller.shown(page, try await database.consentRules())
    }

    func shown(_ posts: [Post], to caller: Caller) async throws -> [Post] {
        caller.shown(posts, try await database.consentRules())
    }

    /// A thread as the caller may see it: nil when its post is not for them, a row in the place of any other post.
    func shown(_ thread: PostThread, to caller: Caller) async throws -> PostThread? {
        let rules = try await database.consentRules()
        return thread.shown { caller.shown($0, rules) }
    }
}
