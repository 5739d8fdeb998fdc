#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Twitter

/// Searches as the app runs them: each one is recorded in Recents and its tweets counted for popularity, in one
/// transaction with the page; *newer* continues from the newest tweet fetched so far for the term and *older* from
/// the oldest, so no tweet is returned twice. Shared by the web app and the CLI through the app database.
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
        let term = try SearchTermKey(term)
        let saved = part == .newest ? nil : try await cursors(for: term)
        guard let request = request(for: part, saved: saved, term: term.shown, count: count) else { return nil }
        return try await run(request, as: part, for: term, saved: saved)
    }

    /// Fetches the page at an explicit position (a web page knows which tweets it shows), recording and counting
    /// it like any other search.
    public func fetch(_ term: String, at position: SearchRequest.Position, count: Int = 20) async throws -> SearchPage {
        let term = try SearchTermKey(term)
        let part = Part(position)
        let saved = part == .newest ? nil : try await cursors(for: term)
        return try await run(SearchRequest(query: term.shown, count: count, position: position), as: part, for: term, saved: saved)
    }

    /// Fetches the page, then records Recents, the session's cursors and the counts in one transaction.
    private func run(_ request: SearchRequest, as part: Part, for term: SearchTermKey, saved: SessionCursors?) async throws -> SearchPage {
        let page = try await source.search(request)
        let cursors = SessionCursors(after: page, of: part, saved: saved)
        try await database.writer.write { db in
            let termID = try Recents.record(term, cursors: cursors, in: db)
            try PopularityCounter(db: db, termID: termID).count(page.tweets)
        }
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

    private func cursors(for term: SearchTermKey) async throws -> SessionCursors? {
        try await database.writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT newer, older FROM recent WHERE key = ?", arguments: [term.key]),
                  let newer: String = row[0] else { return nil }
            return try SessionCursors(newer: newer, older: row[1])
        }
    }
}

extension SearchSessions.Part {
    init(_ position: SearchRequest.Position) {
        self = switch position {
        case .newest: .newest
        case .newer: .newer
        case .older: .older
        }
    }
}

/// A session's follow-on requests.
struct SessionCursors {
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
