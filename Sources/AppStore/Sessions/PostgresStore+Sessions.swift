import Logging
import PostgresNIO
import PostgresSupport
import Posts

/// Searches recorded: Recents, the sessions' follow-on requests, the counting of each page.
extension PostgresStore: SessionStore {
    func recordedTerm(_ key: String, of holder: Holder, counting keys: Set<PostKey>) async throws -> RecordedTerm? {
        try await read { connection in try await Self.recordedTerm(key, holder, counting: keys, connection) }
    }

    /// Never settled from memory (other servers write): the store's function decides whether the page would change
    /// nothing, and records it otherwise (`smashtag_record`). A page at the newest position is one statement, its own
    /// transaction, unless some of its posts were counted already (then the tally of the others is added in a
    /// transaction after). A page of newer or older posts, whose follow-on requests are made from the saved ones,
    /// reads the term first.
    func record(_ term: SearchTermKey, of holder: Holder, _ page: PreparedPage) async throws -> SettledTerm? {
        let waiting: Int
        if let cursors = page.fresh, let whole = try await recordWhole(term, holder, page, cursors) {
            waiting = whole
        } else {
            waiting = try await transaction { connection -> Int in
                var recorded: RecordedTerm?
                if page.fresh == nil {
                    recorded = try await Self.recordedTerm(term.key, holder, counting: page.found.keys, connection)
                    if let recorded, recorded.isUnchanged(by: term, page.found) { return 0 }
                }
                let cursors = page.encodedCursors(saved: recorded?.cursors)
                let query = Self.recording(term, holder, page, cursors, settle: page.fresh != nil, whole: false)
                guard let row = try await connection.rows(query).first, let recorded = try Recorded(row) else {
                    return 0
                }
                try await PostgresCounter(connection: connection).addCounts(
                    of: page, fresh: recorded.fresh, under: recorded.termID)
                return recorded.waiting
            }
        }
        await deleteOrphans(adding: waiting)
        return nil
    }

    /// The page recorded whole in one statement: the posts that began to wait; nil when some of the page's posts
    /// were counted already, and nothing was written.
    private func recordWhole(
        _ term: SearchTermKey, _ holder: Holder, _ page: PreparedPage, _ cursors: SessionCursors.Encoded
    ) async throws -> Int? {
        do {
            let rows = try await pool.statement(Self.recording(term, holder, page, cursors, settle: true, whole: true))
            return try rows.first.flatMap(Recorded.init)?.waiting ?? 0
        } catch let error as PSQLError where error.sqlState == PostgresFunctions.partlyCounted {
            return nil
        }
    }

    private static func recording(
        _ term: SearchTermKey, _ holder: Holder, _ page: PreparedPage, _ cursors: SessionCursors.Encoded,
        settle: Bool, whole: Bool
    ) -> PostgresQuery {
        """
        \(serversOf: page)SELECT term_id, unchanged, fresh, waiting FROM smashtag_record(\(term.key), \(term.shown), \
        \(holder.id), \
        \(cursors.newer), \(cursors.older), \(settle), \(whole), \(Recents.limit), \(PostgresChanges.channel), \
        \(page: page))
        """
    }

    /// A batch of the pushed-out terms' posts, once more than the allowance wait, after the search's own transaction.
    /// A failure is not the search's: the posts stay waiting, for the next batch.
    func deleteOrphans(adding waiting: Int) async {
        guard orphans.add(waiting) else { return }
        let taken = try? await pool.statement(
            "SELECT smashtag_delete_orphans(\(PostgresOrphans.batch)) AS taken"
        ).first?["taken"].decode(Int.self)
        orphans.settle(taken: taken ?? 0)
    }

    func countPoll(_ term: SearchTermKey, _ page: PreparedPage) async throws {
        try await transaction { connection in
            _ = try await PostgresCounter(connection: connection).count(page, under: term)
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

    static func recordedTerm(
        _ key: String, _ holder: Holder, counting keys: Set<PostKey>, _ connection: PostgresConnection
    ) async throws -> RecordedTerm? {
        let rows = try await connection.rows(
            """
            SELECT id, term, coalesce(
                (SELECT searched FROM recent_holder WHERE holder_id = \(holder.id) AND term_id = recent.id)
                = (SELECT max(searched) FROM recent_holder WHERE holder_id = \(holder.id)), false) AS is_first,
                newer, older
            FROM recent WHERE key = \(key)
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

    /// Every server's live pages of the term hear of the change when the transaction commits.
    static func notify(_ key: String, _ connection: PostgresConnection) async throws {
        try await connection.run("SELECT pg_notify(\(PostgresChanges.channel), \(key))")
    }
}

/// What `smashtag_record` did: nil when the page changed nothing.
private struct Recorded {
    let termID: Int64
    let fresh: [Int]?
    let waiting: Int

    init?(_ row: PostgresRandomAccessRow) throws {
        guard try !row["unchanged"].decode(Bool.self) else { return nil }
        termID = try row["term_id"].decode(Int64.self)
        fresh = try row["fresh"].decode([Int]?.self)
        waiting = try row["waiting"].decode(Int.self)
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
