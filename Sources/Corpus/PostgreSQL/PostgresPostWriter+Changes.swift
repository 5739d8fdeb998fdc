import PostgresNIO
import PostgresSupport
import Posts

/// What else a live stream and the profile resolver change: posts deleted (with every posting list they are in) and
/// profiles resolved (a DID-named author's `from:` list moved to the handle).
extension PostgresPostWriter {
    /// Removes the posts with these ids (an X id or another network's); how many the corpus held.
    mutating func remove(ids: [String]) async throws -> Int {
        var keys: [Int64] = []
        for id in ids { if let key = try await PostgresPageRange.key(of: id, connection) { keys.append(key) } }
        return try await remove(keys: keys)
    }

    /// Removes these posts and their postings, made again from each post (and the name its author was stored by,
    /// when a resolved Bluesky author is shown by handle); how many there were.
    mutating func remove(keys: [Int64]) async throws -> Int {
        guard !keys.isEmpty else { return 0 }
        let stored = try await connection.rows(
            """
            SELECT p.key, s.handle AS stored FROM corpus_post p JOIN corpus_author s
                ON s.id = coalesce(p.reposter_id, p.author_id)
            WHERE p.key = ANY(\(keys))
            """)
        var storedNames: [Int64: String] = [:]
        for row in stored { storedNames[try row["key"].decode(Int64.self)] = try row["stored"].decode(String.self) }
        let posts = try await connection.rows(
            "\(unescaped: PostgresPostLoader.select) WHERE p.key = ANY(\(keys))")
        var entries: [(key: Int64, terms: Set<String>)] = []
        for row in posts {
            let key = try PostgresPostLoader.key(row)
            entries.append((key, IndexEntry(try PostgresPostLoader.post(row), alsoFrom: storedNames[key]).postingKeys))
        }
        try await terms.find(Set(entries.flatMap(\.terms)), on: connection)
        let pairs = entries.flatMap { entry in entry.terms.compactMap { terms[$0] }.map { ($0, entry.key) } }
        try await connection.run(
            """
            DELETE FROM corpus_posting WHERE (term_id, post_key) IN (
                SELECT * FROM unnest(\(pairs.map(\.0))::integer[], \(pairs.map(\.1))::bigint[]))
            """)
        try await connection.run("DELETE FROM corpus_post WHERE key = ANY(\(entries.map(\.key)))")
        return entries.count
    }

    /// Shows a DID-named author as the profile says and moves their posts' `from:` posting to the new handle.
    mutating func store(_ profile: AccountProfile) async throws {
        guard
            let row = try await connection.rows(
                """
                SELECT id, resolved_handle FROM corpus_author WHERE lower(handle) = \(profile.did.lowercased())
                FOR UPDATE
                """
            ).first
        else { return }
        let (author, old) = (try row["id"].decode(Int64.self), try row["resolved_handle"].decode(String?.self))
        try await connection.run(
            """
            UPDATE corpus_author SET resolved_handle = \(profile.handle), name = \(profile.name),
                picture = \(profile.avatarURL), signed_in_only = \(profile.signedInOnly), pending = false
            WHERE id = \(author)
            """)
        guard old?.lowercased() != profile.handle?.lowercased() else { return }
        if let old {
            try await terms.find([IndexEntry.from(old)], on: connection)
            if let term = terms[IndexEntry.from(old)] {
                try await connection.run(
                    """
                    DELETE FROM corpus_posting WHERE term_id = \(term)
                        AND post_key IN (SELECT key FROM corpus_post WHERE author_id = \(author) AND network <> 0)
                    """)
            }
        }
        if let handle = profile.handle {
            let key = IndexEntry.from(handle)
            try await terms.name([key], on: connection)
            guard let term = terms[key] else { return }
            try await connection.run(
                """
                INSERT INTO corpus_posting (term_id, post_key)
                SELECT \(term), key FROM corpus_post WHERE author_id = \(author) AND network <> 0
                ON CONFLICT DO NOTHING
                """)
        }
    }

    /// An account's identity changed: their profile is resolved again.
    func reresolve(did: String) async throws {
        try await connection.run("UPDATE corpus_author SET pending = true WHERE lower(handle) = \(did.lowercased())")
    }

    /// Removes the posts of the account `did` (its author row is kept by that DID whatever handle it resolved to);
    /// how many there were.
    mutating func removeAccount(did: String) async throws -> Int {
        let keys = try await connection.rows(
            """
            SELECT p.key FROM corpus_author a JOIN corpus_post p ON p.author_id = a.id AND p.network <> 0
            WHERE lower(a.handle) = \(did.lowercased())
            """
        ).map { try $0["key"].decode(Int64.self) }
        return try await remove(keys: keys)
    }
}
