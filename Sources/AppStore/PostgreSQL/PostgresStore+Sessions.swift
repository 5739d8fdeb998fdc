import Logging
import PostgresNIO
import PostgresSupport
import Posts

/// Searches recorded: Recents, the sessions' follow-on requests, the counting of each page.
extension PostgresStore {
    func recordedTerm(_ key: String, counting keys: Set<PostKey>) async throws -> RecordedTerm? {
        try await read { connection in try await Self.recordedTerm(key, counting: keys, connection) }
    }

    /// Never settled from memory (other servers write): an unchanged term is read, and nothing written.
    func record(_ term: SearchTermKey, _ page: PreparedPage) async throws -> SettledTerm? {
        let added = try await transaction { connection -> Bool in
            try await AdvisoryLock.pruning.lockForTransaction(shared: true, on: connection)
            let recorded = try await Self.recordedTerm(term.key, counting: page.found.keys, connection)
            if let recorded, recorded.isUnchanged(by: term, page.found) { return false }
            let termID = try await Self.moveToTop(
                term, cursors: page.encodedCursors(saved: recorded?.cursors), connection)
            try await PostgresCounter(connection: connection, termID: termID).count(page)
            try await Self.notify(term.key, connection)
            return recorded == nil
        }
        if added { try await pruneRecents() }
        return nil
    }

    /// Drops the terms past the limit, in a transaction of its own after the page's. Removing a term deletes posts
    /// that other terms' pages may be counting at that moment, and row by row the two kinds of transaction took each
    /// other's locks in different orders and deadlocked under load. So removal holds the pruning lock exclusively and
    /// counting holds it shared, each as its first lock: a removal waits for the pages being counted and the pages
    /// arriving wait for it (a few milliseconds), and no cycle can form. A term searched again meanwhile is no longer
    /// the oldest and stays.
    func pruneRecents() async throws {
        try await transaction { connection in
            try await AdvisoryLock.pruning.lockForTransaction(shared: false, on: connection)
            // Tracked terms stay whatever the limit.
            let beyond = try await connection.rows(
                """
                SELECT id, searched FROM recent WHERE id NOT IN (SELECT term_id FROM tracked) ORDER BY searched DESC \
                OFFSET \(Recents.limit)
                """)
            for row in beyond {
                guard
                    let key = try await Self.remove(
                        try row["id"].decode(Int64.self), searched: try row["searched"].decode(Int64.self), connection)
                else { continue }
                try await Self.notify(key, connection)  // its live pages empty
            }
        }
    }

    func countPoll(_ term: SearchTermKey, _ page: PreparedPage) async throws {
        try await transaction { connection in
            try await AdvisoryLock.pruning.lockForTransaction(shared: true, on: connection)
            guard let termID = try await Self.id(of: term.key, connection) else { return }  // deleted meanwhile
            try await PostgresCounter(connection: connection, termID: termID).count(page)
            try await Self.notify(term.key, connection)
        }
    }

    func cursors(of key: String) async throws -> SessionCursors? {
        try await read { connection in
            let rows = try await connection.rows("SELECT newer, older FROM recent WHERE key = \(key)")
            guard let row = rows.first else { return nil }
            return try SessionCursors(
                newer: row["newer"].decode(String?.self), older: row["older"].decode(String?.self))
        }
    }

    func recentTerms() async throws -> [String] {
        try await read { connection in
            try await connection.rows("SELECT term FROM recent ORDER BY searched DESC").map {
                try $0["term"].decode(String.self)
            }
        }
    }

    func deleteRecent(_ term: SearchTermKey) async throws -> Bool {
        try await transaction { connection in
            try await AdvisoryLock.pruning.lockForTransaction(shared: false, on: connection)
            guard let id = try await Self.id(of: term.key, connection) else { return false }
            _ = try await Self.remove(id, searched: nil, connection)
            try await Self.notify(term.key, connection)
            return true
        }
    }

    static func recordedTerm(
        _ key: String, counting keys: Set<PostKey>, _ connection: PostgresConnection
    ) async throws -> RecordedTerm? {
        let rows = try await connection.rows(
            """
            SELECT id, term, searched = (SELECT max(searched) FROM recent) AS is_first, newer, older FROM recent WHERE \
            key = \(key)
            """)
        guard let row = rows.first else { return nil }
        let keys = PostKeyColumns(keys)
        let counted = try await connection.rows(
            """
            SELECT p.network, p.post_id FROM unnest(\(keys.networks)::int[], \(keys.ids)::text[]) AS k (network, \
            post_id)
            JOIN post p ON p.network = k.network AND p.post_id = k.post_id
            JOIN counted_post c ON c.term_id = \(try row["id"].decode(Int64.self)) AND c.post_ref = p.id
            """)
        return RecordedTerm(
            shown: try row["term"].decode(String.self), isFirst: try row["is_first"].decode(Bool.self),
            cursors: try SessionCursors(
                newer: row["newer"].decode(String?.self), older: row["older"].decode(String?.self)),
            counted: Set(try counted.compactMap(PostKeyColumns.key)))
    }

    static func id(of key: String, _ connection: PostgresConnection) async throws -> Int64? {
        try await connection.value("SELECT id FROM recent WHERE key = \(key)", "id")
    }

    /// Moves the term to the top with its session's cursors, adding it if new.
    private static func moveToTop(
        _ term: SearchTermKey, cursors: SessionCursors.Encoded, _ connection: PostgresConnection
    ) async throws -> Int64 {
        let id = try await connection.value(
            """
            INSERT INTO recent (key, term, searched, newer, older)
            VALUES (\(term.key), \(term.shown), nextval('recent_searched'), \(cursors.newer), \(cursors.older))
            ON CONFLICT (key) DO UPDATE SET term = excluded.term, searched = excluded.searched,
                newer = excluded.newer, older = excluded.older
            RETURNING id
            """, "id", as: Int64.self)
        return id!  // an upsert returns its row
    }

    /// The term's counts go with it (cascading), and its posts unless another term counts them. `searched`: only if
    /// the term was not searched again since it was found oldest. The removed term's key; nil if it stayed.
    private static func remove(_ id: Int64, searched: Int64?, _ connection: PostgresConnection) async throws -> String?
    {
        let links = try await connection.rows("SELECT post_ref FROM counted_post WHERE term_id = \(id)")
            .map { try $0["post_ref"].decode(Int64.self) }
        let deleted = try await connection.value(
            """
            DELETE FROM recent WHERE id = \(id) AND (\(searched)::bigint IS NULL OR searched = \(searched)) RETURNING \
            key
            """, "key", as: String.self)
        guard let key = deleted else { return nil }
        guard !links.isEmpty else { return key }
        try await connection.run(
            """
            DELETE FROM post WHERE id IN (
                SELECT id FROM post p WHERE id = ANY(\(links)::bigint[])
                    AND NOT EXISTS (SELECT 1 FROM counted_post c WHERE c.post_ref = p.id))
            """)
        return key
    }

    /// Every server's live pages of the term hear of the change when the transaction commits.
    static func notify(_ key: String, _ connection: PostgresConnection) async throws {
        try await connection.run("SELECT pg_notify(\(PostgresChanges.channel), \(key))")
    }
}

/// A page's post keys as two parallel arrays, for `unnest`, and a row's key back.
struct PostKeyColumns {
    let networks: [Int]
    let ids: [String]

    init(_ keys: some Sequence<PostKey>) {
        let keys = Array(keys)
        (networks, ids) = (keys.map(\.network.code), keys.map(\.id))
    }

    /// The key of a row with `network` and `post_id` columns; nil for a network this release does not know.
    static func key(_ row: PostgresRandomAccessRow) throws -> PostKey? {
        guard let network = Network(code: try row["network"].decode(Int.self)) else { return nil }
        return PostKey(network: network, id: try row["post_id"].decode(String.self))
    }
}
