#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Corpus
import GRDB
import Synchronization
import Posts
import Twitter

/// Searches as the app runs them: each one is recorded in Recents and its tweets counted for popularity, in one
/// transaction with the page; *newer* continues from the newest tweet fetched so far for the term and *older* from
/// the oldest, so no tweet is returned twice. Shared by the web app and the CLI through the app database.
public struct SearchSessions: Sendable {
    let database: AppDatabase
    let source: any PostSource
    private let settled = SettledSearch()

    public init(database: AppDatabase, source: any PostSource) {
        self.database = database
        self.source = source
    }

    /// Fetches the page at `position` for `term` (a web page knows which tweets it shows; the CLI asks
    /// `newerPosition`/`olderPosition` where the session stands), then records and counts it in one transaction —
    /// skipped when it would change nothing: the term already first with this spelling, its session's follow-on
    /// requests the same and every tweet already counted under it.
    public func fetch(_ term: String, at position: SearchRequest.Position, count: Int = 20) async throws -> SearchPage {
        let term = try SearchTermKey(term)
        let page = try await source.search(SearchRequest(query: term.shown, count: count, position: position))
        let found = FoundPage(page: page, position: position)
        if try await isSettled(term, found) { return page }
        try await record(term, found)
        return page
    }

    /// Recording would change nothing, as known without the writer: from memory while the database is as it was,
    /// else read. Asked only for the term searched last, the one a repeated search leaves unchanged; any other goes
    /// straight to `record`, which asks again inside its transaction.
    private func isSettled(_ term: SearchTermKey, _ found: FoundPage) async throws -> Bool {
        guard settled.knows(term.key) else { return false }
        let generation = try database.generation.current()
        guard let recorded = try await recorded(term, counting: found.ids, at: generation),
              recorded.isUnchanged(by: term, found) else { return false }
        settled.remember(recorded, of: term.key, at: generation)
        return true
    }

    /// Records the term and counts the page in one transaction, unless that would change nothing (then the term is
    /// remembered as settled, labelled with the generation read before it).
    private func record(_ term: SearchTermKey, _ found: FoundPage) async throws {
        let prepared = try found.prepared()
        let settledTerm = try await database.groupCommit.write { [database] db -> (RecordedTerm, DatabaseGeneration.Value)? in
            let generation = try database.generation.current()
            let recorded = try RecordedTerm(term.key, counting: found.ids, in: db)
            if let recorded, recorded.isUnchanged(by: term, found) { return (recorded, generation) }
            let termID = try Recents.record(term, cursors: prepared.encodedCursors(saved: recorded?.cursors), in: db)
            try PopularityCounter(db: db, termID: termID).count(prepared.storable)
            return nil
        }
        if let (recorded, generation) = settledTerm { settled.remember(recorded, of: term.key, at: generation) }
    }

    /// Where the term's session goes on to newer tweets: just after the newest it has shown (the newest tweets when
    /// it has shown none).
    public func newerPosition(for term: String) async throws -> SearchRequest.Position {
        try await cursors(for: SearchTermKey(term))?.newer.position ?? .newest
    }

    /// Where the term's session goes on to older tweets: before the oldest it has shown (the newest tweets when it
    /// has shown none); nil when it has reached the oldest.
    public func olderPosition(for term: String) async throws -> SearchRequest.Position? {
        guard let cursors = try await cursors(for: SearchTermKey(term)) else { return .newest }
        return cursors.older?.position
    }

    private func cursors(for term: SearchTermKey) async throws -> SessionCursors? {
        try await database.writer.read { db in try RecordedTerm.cursors(of: term.key, in: db) }
    }

    /// As remembered when nothing changed since, else as read.
    private func recorded(_ term: SearchTermKey, counting ids: Set<Int64>, at generation: DatabaseGeneration.Value) async throws -> RecordedTerm? {
        if let known = settled.term(term.key, at: generation, counting: ids) { return known }
        return try await database.writer.read { db in try RecordedTerm(term.key, counting: ids, in: db) }
    }
}

/// A term's row in Recents as the database holds it, and which tweets of a page are already counted under it.
struct RecordedTerm: Sendable {
    let shown: String
    let isFirst: Bool
    let cursors: SessionCursors?
    let counted: Set<Int64>

    init?(_ key: String, counting ids: Set<Int64>, in db: Database) throws {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT id, term, searched = (SELECT max(searched) FROM recent), newer, older FROM recent WHERE key = ?
            """), arguments: [key]) else { return nil }
        (shown, isFirst, cursors) = (row[1], row[2], try SessionCursors(newer: row[3], older: row[4]))
        counted = try Set(Int64.fetchAll(db.cachedStatement(sql: """
            SELECT tweetID FROM countedTweet WHERE termID = ? AND tweetID IN (SELECT value FROM json_each(?))
            """), arguments: [row[0] as Int64, "[" + ids.map(String.init).joined(separator: ",") + "]"]))
    }

    static func cursors(of key: String, in db: Database) throws -> SessionCursors? {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT newer, older FROM recent WHERE key = ?"), arguments: [key])
        return try row.flatMap { try SessionCursors(newer: $0[0], older: $0[1]) }
    }

    /// Recording `term` with the page's cursors and counting its tweets would leave the database as it is.
    func isUnchanged(by term: SearchTermKey, _ found: FoundPage) -> Bool {
        isFirst && shown == term.shown && cursors == found.cursors(saved: cursors) && found.ids.isSubset(of: counted)
    }
}

/// A page fetched for a term.
struct FoundPage: Sendable {
    let page: SearchPage
    let position: SearchRequest.Position
    let ids: Set<Int64>

    init(page: SearchPage, position: SearchRequest.Position) {
        self.page = page
        self.position = position
        ids = Set(page.tweets.compactMap { Int64($0.id) })
    }

    /// The session's follow-on requests after this page; a page at the newest position starts the session afresh.
    func cursors(saved: SessionCursors?) -> SessionCursors {
        SessionCursors(after: page, at: position, saved: position == .newest ? nil : saved)
    }

    /// What recording the page stores, made before the writer is asked: the writer serves every request in turn, so
    /// what can be done without it is. Only for a page that will be written: a settled search never pays for it.
    func prepared() throws -> PreparedPage {
        let fresh = position == .newest ? try cursors(saved: nil).encoded() : nil
        return PreparedPage(found: self, storable: page.tweets.compactMap(StorableTweet.init), fresh: fresh)
    }
}

/// A found page with its tweets' JSON and, at the newest position (where they do not depend on the saved ones), its
/// follow-on requests encoded.
struct PreparedPage: Sendable {
    let found: FoundPage
    let storable: [StorableTweet]
    let fresh: SessionCursors.Encoded?

    func encodedCursors(saved: SessionCursors?) throws -> SessionCursors.Encoded {
        try fresh ?? found.cursors(saved: saved).encoded()
    }
}

/// The last term a search found unchanged, with the generation of the database it was read at: until the database
/// changes (this process or another), a repeated search is known to change nothing without asking SQLite.
private final class SettledSearch: Sendable {
    private struct Entry {
        let generation: DatabaseGeneration.Value
        let key: String
        let term: RecordedTerm
    }

    private let last = Mutex<Entry?>(nil)

    /// The term as remembered, if the database is still as it was and the remembered tweets cover `ids`.
    func term(_ key: String, at generation: DatabaseGeneration.Value, counting ids: Set<Int64>) -> RecordedTerm? {
        last.withLock { last in
            guard let last, last.generation == generation, last.key == key, ids.isSubset(of: last.term.counted) else { return nil }
            return last.term
        }
    }

    /// The term is the one remembered, however old the memory.
    func knows(_ key: String) -> Bool {
        last.withLock { $0?.key == key }
    }

    func remember(_ term: RecordedTerm, of key: String, at generation: DatabaseGeneration.Value) {
        last.withLock { $0 = Entry(generation: generation, key: key, term: term) }
    }
}

/// A session's follow-on requests.
struct SessionCursors: Equatable, Sendable {
    let newer: SearchRequest
    let older: SearchRequest?

    /// A page of newer tweets leaves the older side where it was, and a page of older ones the newer side.
    init(after page: SearchPage, at position: SearchRequest.Position, saved: SessionCursors?) {
        newer = if case .older = position { saved?.newer ?? page.newer } else { page.newer }
        older = if case .newer = position { saved?.older ?? page.older } else { page.older }
    }

    /// As `encoded()` stored them; nil for a term without a session.
    init?(newer: String?, older: String?) throws {
        guard let newer else { return nil }
        let decoder = JSONDecoder()
        self.newer = try decoder.decode(SearchRequest.self, from: Data(newer.utf8))
        self.older = try older.map { try decoder.decode(SearchRequest.self, from: Data($0.utf8)) }
    }

    /// The follow-on requests as the `recent` table stores them.
    struct Encoded: Sendable {
        let newer: String
        let older: String?
    }

    func encoded() throws -> Encoded {
        let encoder = JSONEncoder()
        let newer = String(decoding: try encoder.encode(self.newer), as: UTF8.self)
        return Encoded(newer: newer, older: try older.map { String(decoding: try encoder.encode($0), as: UTF8.self) })
    }
}

/// A search term as typed (trimmed, spaces collapsed) and the key that makes terms the same case-insensitively
/// (SPEC §3).
struct SearchTermKey: Sendable {
    let shown: String
    let key: String

    init(_ term: String) throws(QueryError) {
        shown = term.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        key = shown.lowercased()
        guard !shown.isEmpty else { throw QueryError.empty }
    }
}
