import PostgresNIO
import PostgresSupport
import Posts

/// Removals on PostgreSQL, in one transaction: the posts' advisory locks taken alone (a page counting one of them
/// holds it shared, so the removal waits for that page, and a page that comes after finds the post gone), the terms
/// that counted them locked as a search locks its term, each term's tally taken back (`smashtag_subtract_counts`, the
/// counting's arrays in reverse), then the posts deleted and the terms' live pages told.
extension PostgresStore: RemovalStore {
    func remove(_ keys: [PostKey], from term: String?, inTransactionsOf size: Int) async throws -> RemovedPosts {
        var removed = RemovedPosts()
        for batch in keys.chunks(of: size) { removed.add(try await remove(batch, from: term)) }
        return removed
    }

    /// One batch, from every term that counted its posts or from the term `term` (its key) only.
    private func remove(_ keys: [PostKey], from term: String?) async throws -> RemovedPosts {
        let columns = PostKeyColumns(Set(keys).sorted { ($0.network.code, $0.id) < ($1.network.code, $1.id) })
        return try await transaction { connection in
            try await connection.run(
                """
                SELECT count(pg_advisory_xact_lock(\(unescaped: PostgresFunctions.postLock("k.n", "k.i"))))
                FROM (SELECT n, i FROM unnest(\(columns.networks)::int[], \(columns.ids)::text[]) AS u (n, i)
                    ORDER BY n, i) AS k
                """)
            // The one term's id, looked up first: a condition that also allows "every term" would be planned for both.
            var only: Int64?
            if let term {
                only = try await connection.value("SELECT id FROM recent WHERE key = \(term)", "id", as: Int64.self)
                guard only != nil else { return RemovedPosts() }
            }
            let query: PostgresQuery =
                if let only {
                    """
                    SELECT p.id, p.json, c.term_id, r.key
                    FROM unnest(\(columns.networks)::int[], \(columns.ids)::text[]) AS k (n, i)
                    JOIN post p ON p.network = k.n AND p.post_id = k.i
                    JOIN counted_post c ON c.post_ref = p.id AND c.term_id = \(only) JOIN recent r ON r.id = c.term_id
                    """
                } else {
                    """
                    SELECT p.id, p.json, c.term_id, r.key
                    FROM unnest(\(columns.networks)::int[], \(columns.ids)::text[]) AS k (n, i)
                    JOIN post p ON p.network = k.n AND p.post_id = k.i
                    LEFT JOIN counted_post c ON c.post_ref = p.id LEFT JOIN recent r ON r.id = c.term_id
                    """
                }
            let rows = try await connection.rows(query)
            var references = Set<Int64>()
            var uncounted = UncountedTally()
            for row in rows {
                references.insert(try row["id"].decode(Int64.self))
                try uncounted.add(
                    term: row["term_id"].decode(Int64?.self), key: row["key"].decode(String?.self),
                    json: row["json"].decode(String.self))
            }
            let tallies = uncounted.tallies
            try await connection.run(
                "SELECT id FROM recent WHERE id = ANY(\(tallies.map(\.term))) ORDER BY id FOR UPDATE")
            var removed = RemovedPosts()
            for (term, key, tally) in tallies {
                if !tally.isEmpty {
                    try await connection.run("SELECT smashtag_subtract_counts(\(term), \(tally: tally))")
                }
                try await Self.notify(key, connection)
                removed.terms.insert(key)
            }
            let refs = references.sorted()
            if let only {
                try await connection.run("DELETE FROM counted_post WHERE post_ref = ANY(\(refs)) AND term_id = \(only)")
                // A post another term still counts stays.
                try await connection.run(
                    """
                    DELETE FROM post WHERE id = ANY(\(refs))
                        AND NOT EXISTS (SELECT 1 FROM counted_post c WHERE c.post_ref = post.id)
                    """)
            } else {
                try await connection.run("DELETE FROM counted_post WHERE post_ref = ANY(\(refs))")
                try await connection.run("DELETE FROM post WHERE id = ANY(\(refs))")
            }
            removed.posts = refs.count
            return removed
        }
    }

    func recheckCandidates(
        _ network: Network, after reference: Int64, checkedBefore: Int64, limit: Int
    ) async throws -> [KeptPost] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT id, post_id FROM post WHERE id > \(reference) AND network = \(network.code)
                    AND coalesce(checked, 0) < \(checkedBefore)
                    AND EXISTS (SELECT 1 FROM counted_post c WHERE c.post_ref = post.id)
                ORDER BY id LIMIT \(limit)
                """
            ).map {
                KeptPost(
                    reference: try $0["id"].decode(Int64.self),
                    key: PostKey(network: network, id: try $0["post_id"].decode(String.self)))
            }
        }
    }

    func retentionCandidates(
        createdBefore: Int64, after reference: Int64, limit: Int, reducedToo: Bool
    ) async throws -> [KeptPost] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT id, network, post_id FROM post WHERE id > \(reference) AND created < \(createdBefore)
                    AND (\(reducedToo) OR expired IS NULL)
                ORDER BY id LIMIT \(limit)
                """
            ).compactMap { row in
                try PostKeyColumns.key(row).map { KeptPost(reference: try row["id"].decode(Int64.self), key: $0) }
            }
        }
    }

    func termRetentionCandidates(
        _ key: String, createdBefore: Int64, now: Int64, after reference: Int64, limit: Int, forgetting: Bool
    ) async throws -> [KeptPost] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT p.id, p.network, p.post_id FROM counted_post c JOIN post p ON p.id = c.post_ref
                WHERE c.term_id = (SELECT id FROM recent WHERE key = \(key)) AND c.post_ref > \(reference)
                    AND p.created < \(createdBefore) AND (\(forgetting) OR (p.expired IS NULL AND NOT EXISTS (
                        SELECT 1 FROM counted_post o LEFT JOIN tracked t ON t.term_id = o.term_id
                        WHERE o.post_ref = p.id AND o.term_id <> c.term_id
                            AND (t.keep_days IS NULL OR p.created >= \(now) - t.keep_days * 86400000::bigint))))
                ORDER BY c.post_ref LIMIT \(limit)
                """
            ).compactMap { row in
                try PostKeyColumns.key(row).map { KeptPost(reference: try row["id"].decode(Int64.self), key: $0) }
            }
        }
    }

    func reduce(_ keys: [PostKey], at time: Int64) async throws -> Int {
        guard !keys.isEmpty else { return 0 }
        let columns = PostKeyColumns(keys)
        return try await transaction { connection in
            let rows = try await connection.rows(
                """
                SELECT p.id, p.json, (SELECT array_agg(c.term_id) FROM counted_post c WHERE c.post_ref = p.id) AS terms
                FROM unnest(\(columns.networks)::int[], \(columns.ids)::text[]) AS k (n, i)
                JOIN post p ON p.network = k.n AND p.post_id = k.i WHERE p.expired IS NULL ORDER BY p.id FOR UPDATE OF p
                """)
            let ids = try rows.map { try $0["id"].decode(Int64.self) }
            let posts = try rows.map { try StorablePost.decode($0["json"].decode(String.self)) }
            let reduced = posts.map(\.withheld.storedJSON)
            // A reduced post keeps no author: it leaves the conversation networks, as a later removal could not take
            // its interactions back.
            var acting: [Int64: MentionTally] = [:]
            for (row, post) in zip(rows, posts) where Interaction(post) != nil {
                for term in try row["terms"].decode([Int64]?.self) ?? [] {
                    acting[term, default: MentionTally([])].add(post)
                }
            }
            let terms = acting.keys.sorted()
            try await connection.run("SELECT id FROM recent WHERE id = ANY(\(terms)) ORDER BY id FOR UPDATE")
            for term in terms {
                let tally = acting[term]?.interactionsOnly ?? MentionTally([])
                try await connection.run("SELECT smashtag_subtract_counts(\(term), \(tally: tally))")
            }
            try await connection.run(
                """
                UPDATE post p SET json = r.json, expired = \(time)
                FROM unnest(\(ids)::bigint[], \(reduced)::text[]) AS r (id, json) WHERE p.id = r.id
                """)
            return ids.count
        }
    }

    func markChecked(_ keys: [PostKey], at time: Int64) async throws {
        guard !keys.isEmpty else { return }
        let columns = PostKeyColumns(keys)
        _ = try await pool.statement(
            """
            UPDATE post p SET checked = \(time)
            FROM unnest(\(columns.networks)::int[], \(columns.ids)::text[]) AS k (n, i)
            WHERE p.network = k.n AND p.post_id = k.i
            """)
    }

    /// `starts_with`, not a range: the database's collation need not sort a prefix's strings together.
    func storedKeys(ofAccount did: String) async throws -> [PostKey] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT post_id FROM post
                WHERE network = \(Network.bluesky.code) AND starts_with(post_id, \("at://\(did)/")) ORDER BY id
                """
            ).map { PostKey(network: .bluesky, id: try $0["post_id"].decode(String.self)) }
        }
    }

    func storedKeys(byAuthor handle: String) async throws -> [PostKey] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT network, post_id FROM post WHERE lower(json::jsonb #>> '{user,screenName}') = lower(\(handle))
                ORDER BY id
                """
            ).compactMap(PostKeyColumns.key)
        }
    }

    func recheckState(_ term: SearchTermKey) async throws -> RecheckState? {
        try await read { connection in
            guard let id = try await Self.id(of: term.key, connection) else { return nil }
            let row = try await connection.rows(
                """
                SELECT count(*) AS posts, count(p.checked) AS checked, min(p.checked) AS oldest
                FROM counted_post c JOIN post p ON p.id = c.post_ref WHERE c.term_id = \(id)
                """
            ).first
            guard let row else { return nil }
            return RecheckState(
                posts: try row["posts"].decode(Int.self), checked: try row["checked"].decode(Int.self),
                oldestCheck: try row["oldest"].decode(Int64?.self))
        }
    }
}
