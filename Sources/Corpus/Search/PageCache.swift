import Synchronization
import Posts
import Twitter

/// The last pages searched, each valid for the corpus generation it was read at: a repeated search costs a look-up
/// here instead of the query, and any change to the corpus (the demo tweeter, `import`, another process) empties it
/// at the next look-up. At most `limit` pages, the least recently used going first.
final class PageCache: Sendable {
    private struct Entry {
        let page: SearchPage
        var used: UInt64
    }

    private struct State {
        var generation: DatabaseGeneration.Value?
        var entries: [SearchRequest: Entry] = [:]
        var clock: UInt64 = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int = 128) {
        self.limit = limit
    }

    func page(for request: SearchRequest, at generation: DatabaseGeneration.Value) -> SearchPage? {
        state.withLock { state in
            guard state.generation == generation, var entry = state.entries[request] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[request] = entry
            return entry.page
        }
    }

    func store(_ page: SearchPage, for request: SearchRequest, at generation: DatabaseGeneration.Value) {
        state.withLock { state in
            if state.generation != generation {
                // A slow search read before the last change must not bring back its older generation.
                if let current = state.generation, generation.precedes(current) { return }
                state = State(generation: generation)
            }
            if state.entries[request] == nil, state.entries.count >= limit, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
                state.entries[oldest.key] = nil
            }
            state.clock += 1
            state.entries[request] = Entry(page: page, used: state.clock)
        }
    }
}
