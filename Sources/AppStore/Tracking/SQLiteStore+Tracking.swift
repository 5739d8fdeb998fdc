import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Tracked terms: their plans, schedule and each source's position, in the same file as Recents.
extension SQLiteStore: TrackingStore {
    func track(_ term: SearchTermKey, _ plan: TrackingPlan, by holder: Holder, now: Int64) async throws {
        try await groupCommit.write { [orphans] db in
            let id = try Self.ensureRecent(term, db)
            let tracked = try Int.fetchOne(db, sql: "SELECT count(*) FROM tracked WHERE termID <> ?", arguments: [id])
            guard (tracked ?? 0) < TrackingPlan.most else { throw TrackingError.tooMany }
            try db.execute(
                sql: """
                    INSERT INTO tracked(termID, every, sources, backfill, since, due, trackedBy, keepDays, keepForgets)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(termID) DO UPDATE SET every = excluded.every, sources = excluded.sources,
                        backfill = excluded.backfill, due = excluded.due, keepDays = excluded.keepDays,
                        keepForgets = excluded.keepForgets
                    """,
                arguments: [
                    id, plan.every, plan.sources?.joined(separator: ","), plan.backfill, now, now, holder.id,
                    plan.keepDays, plan.forgetsCounts,
                ])
            if try Self.isHeld(id, by: holder, db) { return }
            let searched = try Int64.fetchOne(
                db,
                sql: """
                    UPDATE recent SET searched = (SELECT max(searched) + 1 FROM recent) WHERE id = ? \
                    RETURNING searched
                    """,
                arguments: [id])
            try Self.hold(id, searched: searched ?? 0, for: holder, pushingOut: orphans, db)
        }
    }

    func untrack(_ key: String) async throws -> Bool {
        try await groupCommit.write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM recent WHERE key = ?", arguments: [key])
            else { return false }
            try db.execute(sql: "DELETE FROM trackedSource WHERE termID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM tracked WHERE termID = ?", arguments: [id])
            guard db.changesCount > 0 else { return false }
            try OrphanPosts.delete(Self.removeIfUnheld([id], db), db)
            return true
        }
    }

    private static func isHeld(_ termID: Int64, by holder: Holder, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM recentHolder WHERE holderID = ? AND termID = ?)",
            arguments: [holder.id, termID]) ?? false
    }

    func trackedTerms(_ key: String?) async throws -> [TrackedTerm] {
        try await writer.read { db in try Self.trackedTerms(key.map { .key($0) } ?? .all, db) }
    }

    func claimDue(now: Int64, leaseUntil: Int64, limit: Int, keys: [String]?) async throws -> [TrackedTerm] {
        let only = keys.map(PublicJSON.text)
        // Read first: a write that claims nothing would still be a commit, which every cache and live page hears.
        let due = try await writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM tracked WHERE due <= ?1 AND coalesce(leaseUntil, 0) < ?1)",
                arguments: [now]) ?? false
        }
        guard due else { return [] }
        return try await groupCommit.write { db in
            let claimed = try Int64.fetchAll(
                db,
                sql: """
                    UPDATE tracked SET leaseUntil = ?1 WHERE termID IN (
                        SELECT termID FROM tracked WHERE due <= ?2 AND coalesce(leaseUntil, 0) < ?2
                            AND (?4 IS NULL
                                OR termID IN (SELECT id FROM recent WHERE key IN (SELECT value FROM json_each(?4))))
                        ORDER BY due LIMIT ?3)
                    RETURNING termID
                    """, arguments: [leaseUntil, now, limit, only])
            return try Self.trackedTerms(.ids(claimed), db)
        }
    }

    func collect(_ term: SearchTermKey, _ page: PreparedPage?, _ source: TrackedSource) async throws -> Bool {
        let (tracked, learned) = try await groupCommit.write { [knownMentions] db -> (Bool, [String: Int64]) in
            guard let termID = try Self.id(of: term, db) else { return (false, [:]) }  // deleted meanwhile
            var learned: [String: Int64] = [:]
            if let page {
                let counted = try Self.countedKeys(page.found.keys, termID: termID, db)
                learned = try SQLiteCounter(db: db, termID: termID, counted: counted, known: knownMentions).count(page)
            }
            return (try Self.save(source, of: termID, db), learned)
        }
        knownMentions.remember(learned)
        return tracked
    }

    func finishRun(_ key: String, due: Int64, fetched: Int64, backfill: Int) async throws {
        try await groupCommit.write { db in
            try db.execute(
                sql: """
                    UPDATE tracked SET due = ?, fetched = ?, backfill = ?, leaseUntil = NULL
                    WHERE termID = (SELECT id FROM recent WHERE key = ?)
                    """, arguments: [due, fetched, backfill, key])
        }
    }

    /// The term's row in Recents, added at the top when it is not there (with no session yet).
    private static func ensureRecent(_ term: SearchTermKey, _ db: Database) throws -> Int64 {
        if let id = try id(of: term, db) { return id }
        try db.execute(
            sql: """
                INSERT INTO recent(key, term, searched)
                VALUES (?, ?, (SELECT coalesce(max(searched), 0) + 1 FROM recent))
                """, arguments: [term.key, term.shown])
        return db.lastInsertedRowID
    }

    /// Keeps where the source stands, if the term is still tracked.
    private static func save(_ source: TrackedSource, of termID: Int64, _ db: Database) throws -> Bool {
        try db.execute(
            sql: """
                INSERT INTO trackedSource(termID, source, newer, older, error, retryAt, failures, gap)
                SELECT termID, ?, ?, ?, ?, ?, ?, ? FROM tracked WHERE termID = ?
                ON CONFLICT(termID, source) DO UPDATE SET newer = excluded.newer, older = excluded.older,
                    error = excluded.error, retryAt = excluded.retryAt, failures = excluded.failures, gap = excluded.gap
                """,
            arguments: [
                source.name, PositionText.encode(source.newer), PositionText.encode(source.older), source.error,
                source.retryAt?.millisecondsSince1970, source.failures, source.gap, termID,
            ])
        return db.changesCount > 0
    }

    private enum Selection {
        case all
        case key(String)
        case ids([Int64])
    }

    private static func trackedTerms(_ selection: Selection, _ db: Database) throws -> [TrackedTerm] {
        let (condition, arguments): (String, StatementArguments) =
            switch selection {
            case .all: ("", [])
            case .key(let key): ("WHERE r.key = ?", [key])
            case .ids(let ids):
                (
                    "WHERE t.termID IN (SELECT value FROM json_each(?))",
                    ["[" + ids.map(String.init).joined(separator: ",") + "]"]
                )
            }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT t.*, r.term, r.key, (SELECT count(*) FROM countedPost c WHERE c.termID = t.termID) AS posts,
                    p.name AS trackedByName
                FROM tracked t JOIN recent r ON r.id = t.termID LEFT JOIN person p ON p.id = t.trackedBy \(condition)
                ORDER BY r.searched DESC
                """, arguments: arguments)
        return try rows.map { row in
            let sources = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM trackedSource WHERE termID = ?"), arguments: [row["termID"]])
            return TrackedTerm(row, sources: sources.map(TrackedSource.init(row:)))
        }
    }
}

extension TrackedTerm {
    /// A `tracked` row joined with its term's, and its sources' rows.
    fileprivate init(_ row: Row, sources: [TrackedSource]) {
        let names: String? = row["sources"]
        self.init(
            term: row["term"], key: row["key"],
            plan: TrackingPlan(
                every: row["every"], sources: names.map { $0.split(separator: ",").map(String.init) },
                backfill: row["backfill"], keepDays: row["keepDays"], forgetsCounts: row["keepForgets"]),
            since: Date(millisecondsSince1970: row["since"]), due: Date(millisecondsSince1970: row["due"]),
            fetched: (row["fetched"] as Int64?).map(Date.init(millisecondsSince1970:)), posts: row["posts"],
            sources: sources, trackedBy: .person(row["trackedBy"]), trackedByName: row["trackedByName"])
    }
}

extension TrackedSource {
    /// A `trackedSource` row.
    fileprivate init(row: Row) {
        self.init(
            name: row["source"], newer: PositionText.decode(row["newer"]), older: PositionText.decode(row["older"]),
            error: row["error"], retryAt: (row["retryAt"] as Int64?).map(Date.init(millisecondsSince1970:)),
            failures: row["failures"], gap: row["gap"])
    }
}
