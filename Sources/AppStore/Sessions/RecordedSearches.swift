import Posts
import Synchronization
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A term's searches as the store records them: each page in Recents and counted for popularity, in one transaction
/// with the term's session (its follow-on requests, so *newer* and *older* go on where the term's pages stopped and
/// no post is counted twice). The search itself, which asks the sources, is the app's (`SmashtagApp`'s
/// `SearchSessions`); this is what it writes.
public struct RecordedSearches: Sendable {
    let database: AppDatabase
    private let settled = SettledSearch()

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Records the page fetched for `term` at `position` in the holder's Recents and counts it, in one transaction —
    /// skipped when it would change nothing: the term already first in their Recents with this spelling, its
    /// session's follow-on requests the same and every post already counted under it.
    public func record(
        _ term: SearchTermKey, for holder: Holder = .owner, _ page: MergedPage, at position: MergedPosition
    ) async throws {
        let found = FoundPage(page: page, position: position)
        if try await isSettled(term, holder, found) { return }
        let prepared = found.prepared(try await database.consentRules())
        if let settledTerm = try await database.store.record(term, of: holder, prepared) {
            settled.remember(settledTerm, of: term.key, holder)
        }
    }

    /// Recording would change nothing, as known without the writer: from memory while the store is as it was,
    /// else read. Asked only for the term searched last, the one a repeated search leaves unchanged, and only when the
    /// store has a generation; any other goes straight to `record`, which asks again inside its transaction.
    private func isSettled(_ term: SearchTermKey, _ holder: Holder, _ found: FoundPage) async throws -> Bool {
        guard settled.knows(term.key, holder), let generation = try database.store.generation() else { return false }
        guard let recorded = try await recorded(term, holder, counting: found.keys, at: generation),
            recorded.isUnchanged(by: term, found)
        else { return false }
        settled.remember(SettledTerm(term: recorded, generation: generation), of: term.key, holder)
        return true
    }

    /// A feed reader's poll: the newest posts, counted under the term as a search's are while the term is in Recents —
    /// and only then: a poll never adds a term, never moves one (a reader polling every 15 minutes would otherwise
    /// keep it on top, push the oldest terms and their counts out, and bring back a term the person deleted). The term
    /// keeps its place and its session. Nothing is written when no post is new for it.
    public func countPoll(_ term: SearchTermKey, _ page: MergedPage) async throws {
        let found = FoundPage(page: page, position: .newest)
        let recorded = try await database.store.recordedTerm(term.key, of: .owner, counting: found.keys)
        guard let recorded, !found.keys.isSubset(of: recorded.counted) else { return }
        try await database.store.countPoll(term, found.prepared(try await database.consentRules()))
    }

    /// Where the term's session goes on to newer posts from each of the sources named: just after the newest it has
    /// shown (a source's newest posts when it has shown none).
    public func newerPosition(for term: SearchTermKey, from sources: [String]) async throws -> MergedPosition {
        let cursors = try await database.store.cursors(of: term.key)
        return .newer(
            Dictionary(uniqueKeysWithValues: sources.map { name in (name, cursors?.newer[name]?.position ?? .newest) }))
    }

    /// Where the term's session goes on to older posts from each of the sources named: before the oldest it has shown
    /// (a source's newest posts when it has shown none); nil when every source has reached its oldest.
    public func olderPosition(for term: SearchTermKey, from sources: [String]) async throws -> MergedPosition? {
        let cursors = try await database.store.cursors(of: term.key)
        let positions = sources.compactMap { name -> (String, SearchRequest.Position)? in
            guard let saved = cursors?.older[name] else { return (name, .newest) }
            return saved.map { (name, $0.position) }
        }
        return positions.isEmpty ? nil : .older(Dictionary(uniqueKeysWithValues: positions))
    }

    /// As remembered when nothing changed since, else as read.
    private func recorded(
        _ term: SearchTermKey, _ holder: Holder, counting keys: Set<PostKey>, at generation: StoreGeneration
    ) async throws -> RecordedTerm? {
        if let known = settled.term(term.key, holder, at: generation, counting: keys) { return known }
        return try await database.store.recordedTerm(term.key, of: holder, counting: keys)
    }
}

/// A page fetched for a term.
struct FoundPage: Sendable {
    let page: MergedPage
    let position: MergedPosition
    let keys: Set<PostKey>

    init(page: MergedPage, position: MergedPosition) {
        self.page = page
        self.position = position
        keys = Set(page.posts.map(\.key))
    }

    /// The session's follow-on requests after this page; a page at the newest position starts the session afresh.
    func cursors(saved: SessionCursors?) -> SessionCursors {
        SessionCursors(after: page, at: position, saved: position == .newest ? nil : saved)
    }

    /// What recording the page stores, made before the writer is asked: the writer serves every request in turn, so
    /// what can be done without it is. Only for a page that will be written: a settled search never pays for it.
    /// Each post is kept whole or withheld as the consent rules say.
    func prepared(_ rules: ConsentRules) -> PreparedPage {
        let fresh = position == .newest ? cursors(saved: nil).encoded() : nil
        let storable = page.posts.map { StorablePost($0, whole: rules.keepsWhole($0)) }
        return PreparedPage(found: self, storable: storable, fresh: fresh)
    }
}

/// A found page with its posts as the store keeps them and, at the newest position (where they do not depend on the
/// saved ones), its follow-on requests encoded. What is made of the posts — their JSON, their tally — is made by the
/// store that needs it: PostgreSQL's statement carries all of it, SQLite makes it for the posts it does not hold.
struct PreparedPage: Sendable {
    let found: FoundPage
    let storable: [StorablePost]
    let fresh: SessionCursors.Encoded?

    /// Every post's mentions: what a page all new for the term adds, as a new term's first page is.
    var tally: MentionTally { tally(of: storable) }

    /// What the posts new for the term add to its counts.
    func tally(of new: [StorablePost]) -> MentionTally {
        MentionTally(new.map(\.kept))
    }

    func encodedCursors(saved: SessionCursors?) -> SessionCursors.Encoded {
        fresh ?? found.cursors(saved: saved).encoded()
    }
}

/// The last term a search found unchanged, with its holder and the generation of the database it was read at: until
/// the database changes (this process or another), a repeated search is known to change nothing without asking
/// SQLite.
private final class SettledSearch: Sendable {
    private struct Entry {
        let key: String
        let holder: Holder
        let settled: SettledTerm
    }

    private let last = Mutex<Entry?>(nil)

    /// The term as remembered, if the store is still as it was and the remembered posts cover `keys`.
    func term(
        _ key: String, _ holder: Holder, at generation: StoreGeneration, counting keys: Set<PostKey>
    ) -> RecordedTerm? {
        last.withLock { last in
            guard let last, last.settled.generation == generation, last.key == key, last.holder == holder,
                keys.isSubset(of: last.settled.term.counted)
            else { return nil }
            return last.settled.term
        }
    }

    /// The term is the one remembered, however old the memory.
    func knows(_ key: String, _ holder: Holder) -> Bool {
        last.withLock { $0?.key == key && $0?.holder == holder }
    }

    func remember(_ settled: SettledTerm, of key: String, _ holder: Holder) {
        last.withLock { $0 = Entry(key: key, holder: holder, settled: settled) }
    }
}

/// A session's follow-on requests, per source.
struct SessionCursors: Equatable, Sendable {
    /// Each source's request for the posts after the newest it has shown.
    let newer: [String: SearchRequest]
    /// Each source's request for the posts before the oldest it has shown; nil for a source that has shown its
    /// oldest. A source missing from both has shown nothing.
    let older: [String: SearchRequest?]

    init(newer: [String: SearchRequest], older: [String: SearchRequest?]) {
        self.newer = newer
        self.older = older
    }

    /// A page of newer posts leaves each source's older side where it was, and a page of older ones its newer side;
    /// a source that failed or was not asked keeps both.
    init(after page: MergedPage, at position: MergedPosition, saved: SessionCursors?) {
        var newer = saved?.newer ?? [:]
        var older = saved?.older ?? [:]
        for (source, cursor) in page.cursors {
            if case .older = position, newer[source] != nil {} else { newer[source] = cursor.newer }
            if position.isNewer, older.keys.contains(source) {} else { older[source] = cursor.older }
        }
        self.init(newer: newer, older: older)
    }

    /// As `encoded()` stored them; nil for a term without a session. A session stored by a release that searched
    /// one source (the corpus or the X API, both X ids) goes on from where it was in either.
    init?(newer: String?, older: String?) throws {
        guard let newer else { return nil }
        let decoder = JSONDecoder()
        if let legacy = try? decoder.decode(SearchRequest.self, from: Data(newer.utf8)) {
            let legacyOlder = try older.map { try decoder.decode(SearchRequest.self, from: Data($0.utf8)) }
            self.init(newer: ["corpus": legacy, "x": legacy], older: ["corpus": legacyOlder, "x": legacyOlder])
            return
        }
        self.init(
            newer: try decoder.decode([String: SearchRequest].self, from: Data(newer.utf8)),
            older: try older.map { try decoder.decode([String: SearchRequest?].self, from: Data($0.utf8)) } ?? [:])
    }

    /// The follow-on requests as the `recent` table stores them.
    struct Encoded: Sendable {
        let newer: String
        let older: String
    }

    func encoded() -> Encoded {
        var newerJSON = JSONWriter()
        var olderJSON = JSONWriter()
        newerJSON.write(newer)
        olderJSON.write(older)
        return Encoded(newer: newerJSON.output.string, older: olderJSON.output.string)
    }
}
