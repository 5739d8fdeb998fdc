import Logging
import PostgresNIO
import Posts

/// Searches recorded: Recents, the sessions' follow-on requests, the counting of each page.
extension PostgresStore {
    func recordedTerm(_ key: String, counting keys: Set<PostKey>) async throws -> RecordedTerm? {
        try await read { connection in try await Self.recordedTerm(key, counting: keys, connection) }
    }

    /// Never settled from memory (other servers write): an unchanged term is read, and nothing written.
    func record(_ term: SearchTermKey, _ page: PreparedPage) async throws -> SettledTerm? {
        let added = try await transaction { connection -> Bool in
            try await Self.lockPruning(.shared, connection)
            let recorded = try await Self.recordedTerm(term.key, counting: page.found.keys, connection)
            if let recorded, recorded.isUnchanged(by: term, page.found) { return false }
            let termID = try await Self.moveToTop(term, cursors: page.encodedCursors(saved: recorded?.cursors), connection)
            try await PostgresCounter(connection: connection, termID: termID).count(page.storable)
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
    private func pruneRecents() async throws {
        try await transaction { connection in
            try await Self.lockPruning(.exclusive, connection)
            let beyond = try await connection.query("SELECT id, searched FROM recent ORDER BY searched DESC OFFSET \(Recents.limit)", logger: .store).collect()
            for row in beyond {
                let row = row.makeRandomAccess()
                guard let key = try await Self.remove(try row["id"].decode(Int64.self), searched: try row["searched"].decode(Int64.self), connection) else { continue }
                try await Self.notify(key, connection)  // its live pages empty
            }
        }
    }

    func countPoll(_ term: SearchTermKey, _ page: PreparedPage) async throws {
        try await transaction { connection in
            try await Self.lockPruning(.shared, connection)
            guard let termID = try await Self.id(of: term.key, connection) else { return }  // deleted meanwhile
            try await PostgresCounter(connection: connection, termID: termID).count(page.storable)
            try await Self.notify(term.key, connection)
        }
    }

    func cursors(of key: String) async throws -> SessionCursors? {
        try await read { connection in
            let rows = try await connection.query("SELECT newer, older FROM recent WHERE key = \(key)", logger: .store).collect()
            guard let row = rows.first?.makeRandomAccess() else { return nil }
            return try SessionCursors(newer: row["newer"].decode(String?.self), older: row["older"].decode(String?.self))
        }
    }

    func recentTerms() async throws -> [String] {
        try await read { connection in
            try await connection.query("SELECT term FROM recent ORDER BY searched DESC", logger: .store).collect().map {
                try $0.makeRandomAccess()["term"].decode(String.self)
            }
        }
    }

    func deleteRecent(_ term: SearchTermKey) async throws -> Bool {
        try await transaction { connection in
            try await Self.lockPruning(.exclusive, connection)
            guard let id = try await Self.id(of: term.key, connection) else { return false }
            _ = try await Self.remove(id, searched: nil, connection)
            try await Self.notify(term.key, connection)
            return true
        }
    }

    static func recordedTerm(_ key: String, counting keys: Set<PostKey>, _ connection: PostgresConnection) async throws -> RecordedTerm? {
        let rows = try await connection.query("""
            SELECT id, term, searched = (SELECT max(searched) FROM recent) AS is_first, newer, older FROM recent WHERE key = \(key)
            """, logger: .store).collect()
        guard let row = rows.first?.makeRandomAccess() else { return nil }
        let keys = PostKeyColumns(keys)
        let counted = try await connection.query("""
            SELECT p.network, p.post_id FROM unnest(\(keys.networks)::int[], \(keys.ids)::text[]) AS k (network, post_id)
            JOIN post p ON p.network = k.network AND p.post_id = k.post_id
            JOIN counted_post c ON c.term_id = \(try row["id"].decode(Int64.self)) AND c.post_ref = p.id
            """, logger: .store).collect()
        return RecordedTerm(shown: try row["term"].decode(String.self), isFirst: try row["is_first"].decode(Bool.self),
                            cursors: try SessionCursors(newer: row["newer"].decode(String?.self), older: row["older"].decode(String?.self)),
                            counted: Set(try counted.compactMap(PostKeyColumns.key)))
    }

    static func id(of key: String, _ connection: PostgresConnection) async throws -> Int64? {
        let rows = try await connection.query("SELECT id FROM recent WHERE key = \(key)", logger: .store).collect()
        return try rows.first.map { try $0.makeRandomAccess()["id"].decode(Int64.self) }
    }

    /// Moves the term to the top with its session's cursors, adding it if new.
    private static func moveToTop(_ term: SearchTermKey, cursors: SessionCursors.Encoded, _ connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query("""
            INSERT INTO recent (key, term, searched, newer, older)
            VALUES (\(term.key), \(term.shown), nextval('recent_searched'), \(cursors.newer), \(cursors.older))
            ON CONFLICT (key) DO UPDATE SET term = excluded.term, searched = excluded.searched,
                newer = excluded.newer, older = excluded.older
            RETURNING id
            """, logger: .store).collect()
        guard let id = try rows.first?.makeRandomAccess()["id"].decode(Int64.self) else { throw StoreUnavailable(description: "The database gave no id for the term.") }
        return id
    }

    /// The term's counts go with it (cascading), and its posts unless another term counts them. `searched`: only if
    /// the term was not searched again since it was found oldest. The removed term's key; nil if it stayed.
    private static func remove(_ id: Int64, searched: Int64?, _ connection: PostgresConnection) async throws -> String? {
        let links = try await connection.query("SELECT post_ref FROM counted_post WHERE term_id = \(id)", logger: .store).collect()
            .map { try $0.makeRandomAccess()["post_ref"].decode(Int64.self) }
        let deleted = try await connection.query("""
            DELETE FROM recent WHERE id = \(id) AND (\(searched)::bigint IS NULL OR searched = \(searched)) RETURNING key
            """, logger: .store).collect()
        guard let key = try deleted.first?.makeRandomAccess()["key"].decode(String.self) else { return nil }
        guard !links.isEmpty else { return key }
        try await connection.query("""
            DELETE FROM post WHERE id IN (
                SELECT id FROM post p WHERE id = ANY(\(links)::bigint[])
                    AND NOT EXISTS (SELECT 1 FROM counted_post c WHERE c.post_ref = p.id))
            """, logger: .store)
        return key
    }

    private enum LockMode { case shared, exclusive }

    /// Until the transaction ends; see `pruneRecents`.
    private static func lockPruning(_ mode: LockMode, _ connection: PostgresConnection) async throws {
        let lock = AdvisoryLock.pruning
        switch mode {
        case .shared: try await connection.query("SELECT pg_advisory_xact_lock_shared(\(lock.classID), \(lock.objectID))", logger: .store)
        case .exclusive: try await connection.query("SELECT pg_advisory_xact_lock(\(lock.classID), \(lock.objectID))", logger: .store)
        }
    }

    /// Every server's live pages of the term hear of the change when the transaction commits.
    private static func notify(_ key: String, _ connection: PostgresConnection) async throws {
        try await connection.query("SELECT pg_notify(\(PostgresChanges.channel), \(key))", logger: .store)
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
    static func key(_ row: PostgresRow) throws -> PostKey? {
        let row = row.makeRandomAccess()
        guard let network = Network(code: try row["network"].decode(Int.self)) else { return nil }
        return PostKey(network: network, id: try row["post_id"].decode(String.self))
    }
}

extension Logger {
    /// The store's queries are not logged one by one (the pool logs its connections through the store's logger).
    static let store = Logger(label: "smashtag.store", factory: { _ in SwiftLogNoOpLogHandler() })
}
