import Synchronization

/// The ids of mentions whose rows are committed, by key. A mention's row is never changed or deleted once written,
/// so an id learned stays true for the life of the file: a page whose hashtags and users were all met before
/// looks none of them up. Filled only after a commit, so an id from a rolled-back write is never remembered.
final class KnownMentions: Sendable {
    /// Distinct hashtags and users grow without end under a live index: past this, it starts again.
    static let limit = 200_000

    private let ids = Mutex<[String: Int64]>([:])

    /// The ids known of `keys`.
    func ids(of keys: some Sequence<String>) -> [String: Int64] {
        ids.withLock { ids in
            var found: [String: Int64] = [:]
            for key in keys { if let id = ids[key] { found[key] = id } }
            return found
        }
    }

    /// Ids read or written by a transaction that has committed.
    func remember(_ learned: [String: Int64]) {
        guard !learned.isEmpty else { return }
        ids.withLock { ids in
            if ids.count + learned.count > Self.limit { ids.removeAll(keepingCapacity: true) }
            ids.merge(learned) { _, new in new }
        }
    }
}
