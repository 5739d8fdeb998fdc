#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Twitter

/// Searches that go on where they left off: *newer* continues from the newest tweet fetched so far for the term,
/// *older* from the oldest, so no tweet is returned twice. Kept in the app database, so a session survives restarts
/// and is shared by the web app and the CLI.
public struct SearchSessions: Sendable {
    let database: AppDatabase
    let source: any TweetSource

    public init(database: AppDatabase, source: any TweetSource) {
        self.database = database
        self.source = source
    }

    /// Which part of a term's results to fetch.
    public enum Part: Sendable {
        /// Start again from the newest tweets.
        case newest
        case newer
        case older
    }

    /// Fetches a page for `term`. Nil for `.older` when the session has already reached its oldest tweet.
    public func fetch(_ term: String, _ part: Part, count: Int = 20) async throws -> SearchPage? {
        let key = Self.key(term)
        let saved = part == .newest ? nil : try await cursors(for: key)
        guard let request = request(for: part, saved: saved, term: term, count: count) else { return nil }
        let page = try await source.search(request)
        try await save(SessionCursors(after: page, of: part, saved: saved), for: key)
        return page
    }

    private func request(for part: Part, saved: SessionCursors?, term: String, count: Int) -> SearchRequest? {
        let first = SearchRequest(query: term, count: count)
        guard let saved else { return first }
        return switch part {
        case .newest: first
        case .newer: SearchRequest(query: saved.newer.query, count: count, position: saved.newer.position)
        case .older: saved.older.map { SearchRequest(query: $0.query, count: count, position: $0.position) }
        }
    }

    private func cursors(for key: String) async throws -> SessionCursors? {
        try await database.writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT newer, older FROM searchSession WHERE term = ?", arguments: [key]) else { return nil }
            return try SessionCursors(newer: row[0], older: row[1])
        }
    }

    private func save(_ cursors: SessionCursors, for key: String) async throws {
        let (newer, older) = try cursors.encoded()
        try await database.writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO searchSession(term, newer, older) VALUES (?, ?, ?)", arguments: [key, newer, older])
        }
    }
}

/// A session's follow-on requests.
private struct SessionCursors {
    let newer: SearchRequest
    let older: SearchRequest?

    init(after page: SearchPage, of part: SearchSessions.Part, saved: SessionCursors?) {
        newer = part == .older ? saved?.newer ?? page.newer : page.newer
        older = part == .newer ? saved?.older ?? page.older : page.older
    }

    init(newer: String, older: String?) throws {
        let decoder = JSONDecoder()
        self.newer = try decoder.decode(SearchRequest.self, from: Data(newer.utf8))
        self.older = try older.map { try decoder.decode(SearchRequest.self, from: Data($0.utf8)) }
    }

    func encoded() throws -> (newer: String, older: String?) {
        let encoder = JSONEncoder()
        let newer = String(decoding: try encoder.encode(self.newer), as: UTF8.self)
        return (newer, try older.map { String(decoding: try encoder.encode($0), as: UTF8.self) })
    }
}

extension SearchSessions {
    /// Terms are the same search when they match case-insensitively after trimming and collapsing spaces (SPEC §3).
    static func key(_ term: String) -> String {
        term.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }
}
