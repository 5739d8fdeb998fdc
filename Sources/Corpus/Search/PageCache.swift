import Posts
import SQLiteSupport
import Synchronization

/// The last pages searched, each valid for the corpus generation it was read at: a repeated search costs a look-up
/// here instead of the query, and any change to the corpus (the demo tweeter, `import`, another process) empties it
/// at the next look-up. At most `limit` pages, the least recently used going first (a quarter at a time).
final class PageCache: Sendable {
    private struct Entry {
        let page: SearchPage
        var used: UInt64
    }

    private struct State {
        var generation: CorpusGeneration?
        var entries: [SearchRequest: Entry] = [:]
        var clock: UInt64 = 0

        /// A quarter of the pages at once: a full cache of different searches (each one new) would otherwise look
        /// through every entry on every store.
        mutating func dropLeastRecentlyUsed(_ count: Int) {
            for request in entries.lazy.map({ (key: $0.key, used: $0.value.used) }).sorted(by: { $0.used < $1.used })
                .prefix(count).map(\.key)
            {
                entries[request] = nil
            }
        }
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int = 128) {
        self.limit = limit
    }

    func page(for request: SearchRequest, at generation: CorpusGeneration) -> SearchPage? {
        state.withLock { state in
            guard state.generation == generation, var entry = state.entries[request] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[request] = entry
            return entry.page
        }
    }

    func store(_ page: SearchPage, for request: SearchRequest, at generation: CorpusGeneration) {
        state.withLock { state in
            if state.generation != generation {
                // A slow search read before the last change must not bring back its older generation.
                if let current = state.generation, generation.value.precedes(current.value) { return }
                state = State(generation: generation)
            }
            if state.entries[request] == nil, state.entries.count >= limit {
                state.dropLeastRecentlyUsed(max(1, limit / 4))
            }
            state.clock += 1
            state.entries[request] = Entry(page: page, used: state.clock)
        }
    }
}
