import PostgresNIO
import PostgresSupport
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Tracked terms in PostgreSQL: several servers share them, and a term due is taken by one server at a time (a lease
/// on its row, claimed with `FOR UPDATE SKIP LOCKED`), which any other may take over once it runs out.
extension PostgresStore: TrackingStore {
    /// The term joins Recents, so the untracked terms past the limit go in the same transaction, their posts left
    /// waiting for a batch.
    func track(_ term: SearchTermKey, _ plan: TrackingPlan, by holder: Holder, now: Int64) async throws {
        let waiting = try await transaction { connection in
            let id = try await connection.value(
                """
                INSERT INTO recent (key, term, searched) VALUES (\(term.key), \(term.shown), nextval('recent_searched'))
                ON CONFLICT (key) DO UPDATE SET key = excluded.key RETURNING id
                """, "id", as: Int64.self)!
            let others = try await connection.value(
                "SELECT count(*) AS n FROM tracked WHERE term_id <> \(id)", "n", as: Int.self)
            guard (others ?? 0) < TrackingPlan.most else { throw TrackingError.tooMany }
            let sources = plan.sources?.joined(separator: ",")
            try await connection.run(
                """
                INSERT INTO tracked (term_id, every, sources, backfill, since, due, tracked_by, keep_days, keep_forgets)
                VALUES (
                    \(id), \(plan.every), \(sources), \(plan.backfill), \(now), \(now), \(holder.id), \(plan.keepDays),
                    \(plan.forgetsCounts))
                ON CONFLICT (term_id) DO UPDATE SET every = excluded.every, sources = excluded.sources,
                    backfill = excluded.backfill, due = excluded.due, keep_days = excluded.keep_days,
                    keep_forgets = excluded.keep_forgets
                """)
            try await Self.notify(term.key, connection)
            let added = try await connection.rows(
                """
                INSERT INTO recent_holder (holder_id, term_id, searched)
                VALUES (\(holder.id), \(id), nextval('recent_searched'))
                ON CONFLICT (holder_id, term_id) DO NOTHING RETURNING term_id
                """)
            guard !added.isEmpty else { return 0 }
            return try await connection.value(
                """
                SELECT smashtag_push_out(\(holder.id), \(Recents.limit), \(PostgresChanges.channel)) AS waiting
                """, "waiting", as: Int.self) ?? 0
        }
        await deleteOrphans(adding: waiting)
    }

    func untrack(_ key: String) async throws -> Bool {
        try await transaction { connection in
            guard
                let id = try await connection.value(
                    "SELECT id FROM recent WHERE key = \(key) FOR UPDATE", "id", as: Int64.self),
                try await !connection.rows("DELETE FROM tracked WHERE term_id = \(id) RETURNING term_id").isEmpty
            else { return false }
            try await Self.removeIfUnheld(id, connection)
            try await Self.notify(key, connection)
            return true
        }
    }

    func trackedTerms(_ key: String?) async throws -> [TrackedTerm] {
        try await read { connection in
            try await Self.trackedTerms(
                """
                SELECT t.*, r.term, r.key, r.searched, p.name AS tracked_by_name
                FROM tracked t JOIN recent r ON r.id = t.term_id LEFT JOIN person p ON p.id = t.tracked_by
                WHERE \(key)::text IS NULL OR r.key = \(key) ORDER BY r.searched DESC
                """, connection)
        }
    }

    func claimDue(now: Int64, leaseUntil: Int64, limit: Int, keys: [String]?) async throws -> [TrackedTerm] {
        // Read first: every server asks every second, and most of the time nothing is due.
        let due = try await read { connection in
            try await connection.value(
                """
                SELECT EXISTS (SELECT 1 FROM tracked WHERE due <= \(now) AND coalesce(lease_until, 0) < \(now)) AS due
                """, "due", as: Bool.self)
        }
        guard due == true else { return [] }
        return try await transaction { connection in
            try await Self.trackedTerms(
                """
                WITH claimed AS (
                    UPDATE tracked SET lease_until = \(leaseUntil) WHERE term_id IN (
                        SELECT term_id FROM tracked WHERE due <= \(now) AND coalesce(lease_until, 0) < \(now)
                            AND (\(keys)::text[] IS NULL
                                OR term_id IN (SELECT id FROM recent WHERE key = ANY(\(keys)::text[])))
                        ORDER BY due LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING *)
                SELECT c.*, r.term, r.key, r.searched, p.name AS tracked_by_name
                FROM claimed c JOIN recent r ON r.id = c.term_id LEFT JOIN person p ON p.id = c.tracked_by
                """, connection)
        }
    }

    func collect(_ term: SearchTermKey, _ page: PreparedPage?, _ source: TrackedSource) async throws -> Bool {
        try await transaction { connection in
            let termID: Int64?
            if let page {
                termID = try await PostgresCounter(connection: connection).count(page, under: term)
            } else {
                termID = try await Self.id(of: term.key, connection)
            }
            guard let termID else { return false }  // deleted meanwhile
            let saved = try await connection.rows(
                """
                INSERT INTO tracked_source (term_id, source, newer, older, error, retry_at, failures, gap)
                SELECT term_id, \(source.name), \(PositionText.encode(source.newer)), \
                \(PositionText.encode(source.older)), \(source.error), \(source.retryAt?.millisecondsSince1970), \
                \(source.failures), \(source.gap) FROM tracked WHERE term_id = \(termID)
                ON CONFLICT (term_id, source) DO UPDATE SET newer = excluded.newer, older = excluded.older,
                    error = excluded.error, retry_at = excluded.retry_at, failures = excluded.failures,
                    gap = excluded.gap
                RETURNING term_id
                """)
            return !saved.isEmpty
        }
    }

    func finishRun(_ key: String, due: Int64, fetched: Int64, backfill: Int) async throws {
        try await transaction { connection in
            try await connection.run(
                """
                UPDATE tracked SET due = \(due), fetched = \(fetched), backfill = \(backfill), lease_until = NULL
                WHERE term_id = (SELECT id FROM recent WHERE key = \(key))
                """)
            try await Self.notify(key, connection)
        }
    }

    /// The terms `query` selects (a `tracked` row with its term's `term` and `key`), each with its sources and the
    /// posts counted under it.
    private static func trackedTerms(
        _ query: PostgresQuery, _ connection: PostgresConnection
    ) async throws
        -> [TrackedTerm]
    {
        var terms: [TrackedTerm] = []
        for row in try await connection.rows(query) {
            let id = try row["term_id"].decode(Int64.self)
            let sources = try await connection.rows("SELECT * FROM tracked_source WHERE term_id = \(id)")
            let posts = try await connection.value(
                "SELECT count(*) AS n FROM counted_post WHERE term_id = \(id)", "n", as: Int.self)
            terms.append(try TrackedTerm(row, posts: posts ?? 0, sources: sources.map(TrackedSource.init(row:))))
        }
        return terms
    }
}

extension TrackedTerm {
    fileprivate init(_ row: PostgresRandomAccessRow, posts: Int, sources: [TrackedSource]) throws {
        let names = try row["sources"].decode(String?.self)
        self.init(
            term: try row["term"].decode(String.self), key: try row["key"].decode(String.self),
            plan: TrackingPlan(
                every: try row["every"].decode(Int.self),
                sources: names.map { $0.split(separator: ",").map(String.init) },
                backfill: try row["backfill"].decode(Int.self), keepDays: try row["keep_days"].decode(Int?.self),
                forgetsCounts: try row["keep_forgets"].decode(Bool.self)),
            since: Date(millisecondsSince1970: try row["since"].decode(Int64.self)),
            due: Date(millisecondsSince1970: try row["due"].decode(Int64.self)),
            fetched: try row["fetched"].decode(Int64?.self).map(Date.init(millisecondsSince1970:)), posts: posts,
            sources: sources, trackedBy: .person(try row["tracked_by"].decode(Int64.self)),
            trackedByName: try row["tracked_by_name"].decode(String?.self))
    }
}

extension TrackedSource {
    fileprivate init(row: PostgresRandomAccessRow) throws {
        self.init(
            name: try row["source"].decode(String.self),
            newer: PositionText.decode(try row["newer"].decode(String?.self)),
            older: PositionText.decode(try row["older"].decode(String?.self)),
            error: try row["error"].decode(String?.self),
            retryAt: try row["retry_at"].decode(Int64?.self).map(Date.init(millisecondsSince1970:)),
            failures: try row["failures"].decode(Int.self), gap: try row["gap"].decode(String?.self))
    }
}
