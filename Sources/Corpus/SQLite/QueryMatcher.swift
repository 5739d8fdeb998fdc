import GRDB
import Posts
import Twitter

/// Finds the order keys of the posts matching a query, a page at a time, from the index: operator terms from the
/// posting lists, words from the full-text index, combined by cursors that stop as soon as the page is full.
struct QueryMatcher {
    private let root: (any PostCursor)?
    private let direction: WalkDirection

    init(db: Database, query: SearchQuery, direction: WalkDirection) throws {
        self.direction = direction
        self.root = try CursorBuilder(db: db, direction: direction).cursor(for: query)
    }

    /// Up to `count` ids, walking down from `start` (a key: see `WalkDirection`).
    func ids(from start: Int64, count: Int) throws -> [Int64] {
        guard let root else { return [] }
        var ids: [Int64] = []
        var key = start
        while ids.count < count, let found = try root.seek(atMost: key) {
            ids.append(direction.id(found))
            if found == .min { break }
            key = found - 1
        }
        return ids
    }
}

/// Turns a query into cursors. A part with nothing searchable in it (a word of punctuation) constrains nothing:
/// it is nil here, and left out.
private struct CursorBuilder {
    let db: Database
    let direction: WalkDirection

    func cursor(for query: SearchQuery) throws -> (any PostCursor)? {
        switch query {
        case .term(let term): try cursor(for: term)
        case .any(let parts): try anyOf(parts)
        case .all(let parts): try allOf(parts)
        case .excluding(let part): try allOf([part])
        }
    }

    private func anyOf(_ parts: [SearchQuery]) throws -> (any PostCursor)? {
        let cursors = try parts.map(cursor(for:))
        guard !cursors.contains(where: { $0 == nil }) else { return nil }
        return AnyOf(cursors.compactMap { $0 })
    }

    private func allOf(_ parts: [SearchQuery]) throws -> (any PostCursor)? {
        var required: [any PostCursor] = []
        var excluded: [any PostCursor] = []
        for part in parts {
            if case .excluding(let inner) = part {
                if case .excluding(let doubled) = inner, let cursor = try cursor(for: doubled) {
                    required.append(cursor)
                } else if let cursor = try cursor(for: inner) {
                    excluded.append(cursor)
                }
            } else if let cursor = try cursor(for: part) {
                required.append(cursor)
            }
        }
        guard !required.isEmpty else { return nil }
        return required.count == 1 && excluded.isEmpty ? required[0] : AllOf(required: required, excluded: excluded)
    }

    private func cursor(for term: SearchTerm) throws -> (any PostCursor)? {
        switch term {
        case .word(let text), .phrase(let text): try words(text)
        case .hashtag(let tag): try posting(IndexEntry.hashtag(tag))
        case .mention(let name): try posting(IndexEntry.mention(name))
        case .from(let name): try posting(IndexEntry.from(name))
        case .filter(let filter): try posting(IndexEntry.filter(filter))
        }
    }

    private func posting(_ key: String) throws -> any PostCursor {
        guard
            let termID = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM term WHERE key = ?"), arguments: [key])
        else {
            return NoPosts()
        }
        let sql =
            direction == .newestFirst
            ? "SELECT postKey FROM posting WHERE termID = ?1 AND postKey <= ?2 ORDER BY postKey DESC LIMIT ?3"
            : "SELECT postKey FROM posting WHERE termID = ?1 AND postKey >= ?2 ORDER BY postKey ASC LIMIT ?3"
        return try IndexCursor(db: db, sql: sql, list: termID, direction: direction)
    }

    /// The words as a full-text phrase: all of them, adjacent, in order.
    private func words(_ text: String) throws -> (any PostCursor)? {
        let words = WordTokenizer.words(in: text)
        guard !words.isEmpty else { return nil }
        let phrase = "\"" + words.joined(separator: " ") + "\""
        let sql =
            direction == .newestFirst
            ? "SELECT rowid FROM word WHERE word MATCH ?1 AND rowid <= ?2 ORDER BY rowid DESC LIMIT ?3"
            : "SELECT rowid FROM word WHERE word MATCH ?1 AND rowid >= ?2 ORDER BY rowid ASC LIMIT ?3"
        return try IndexCursor(db: db, sql: sql, list: phrase, direction: direction)
    }
}
