import Posts
import SQLiteSupport
import Synchronization

/// Tweets lately loaded, each valid for the corpus generation it was read at: different searches show many of the
/// same posts (`#a OR #b` and `#b OR #c`, the pages after them, a post's own page), and building a post from its
/// rows costs more than the search that found it. A post's row never changes, but its author's name and picture may
/// with an import, so any change to the corpus empties the cache at the next look-up, as `PageCache` does.
/// At most `limit` posts: when the newer half is full it becomes the older half and the oldest half goes.
final class PostCache: Sendable {
    private struct State {
        var generation: DatabaseGeneration.Value?
        var newer: [Int64: Post] = [:]
        var older: [Int64: Post] = [:]
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int = 8_192) {
        self.limit = limit
    }

    /// The cached posts among `ids`, by id.
    func posts(_ ids: [Int64], at generation: DatabaseGeneration.Value) -> [Int64: Post] {
        state.withLock { state in
            guard state.generation == generation else { return [:] }
            var found: [Int64: Post] = [:]
            for id in ids {
                if let post = state.newer[id] ?? state.older[id] { found[id] = post }
            }
            return found
        }
    }

    func store(_ posts: [Int64: Post], at generation: DatabaseGeneration.Value) {
        state.withLock { state in
            if state.generation != generation {
                // A slow load read before the last change must not bring back its older generation.
                if let current = state.generation, generation.precedes(current) { return }
                state = State(generation: generation)
            }
            for (id, post) in posts {
                if state.newer.count >= limit / 2 { (state.older, state.newer) = (state.newer, [:]) }
                state.newer[id] = post
            }
        }
    }
}
