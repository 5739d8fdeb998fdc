import GRDB
import Posts

/// Authors the live index stored by DID, resolved to their profiles: each is shown by handle, name and picture, and
/// found by `from:handle`, from the commit that stores the profile on.
extension SQLiteCorpus {
    /// Up to `limit` DIDs still to resolve, the longest waiting first.
    public func pendingAuthors(limit: Int) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT handle FROM author WHERE pending = 1 ORDER BY id LIMIT ?", arguments: [limit])
        }
    }

    /// Stores the profiles found, in one transaction; DIDs the directory does not know (a deleted or suspended
    /// account) stay shown as DIDs and are no longer pending.
    public func store(profiles: [AccountProfile], unknown: [String] = []) async throws {
        try await write { writer in
            let db = writer.db
            for profile in profiles { try writer.store(profile) }
            for did in unknown {
                try db.execute(sql: "UPDATE author SET pending = 0 WHERE handle = ?", arguments: [did])
            }
        }
    }
}

extension PostWriter {
    /// Shows a DID-named author as the profile says and moves their posts' `from:` token to the new handle: each
    /// post's row of the search index is made again, its old tokens given back first.
    mutating func store(_ profile: AccountProfile) throws {
        guard
            let row = try Row.fetchOne(
                statement("SELECT id, resolvedHandle FROM author WHERE handle = ?"), arguments: [profile.did])
        else { return }
        let (authorID, old): (Int64, String?) = (row["id"], row["resolvedHandle"])
        forget(author: profile.did)
        let update = try statement(
            """
            UPDATE author SET resolvedHandle = ?, name = ?, profileImageURL = ?, signedInOnly = ?, pending = 0
            WHERE id = ?
            """)
        let arguments: StatementArguments = [
            profile.handle, profile.name, profile.avatarURL, profile.signedInOnly, authorID,
        ]
        guard old?.lowercased() != profile.handle?.lowercased() else { return try update.execute(arguments: arguments) }
        let keys = try Int64.fetchAll(
            statement("SELECT id FROM post WHERE authorID = ? AND network <> 0"), arguments: [authorID])
        let before = try SearchIndex.entries(keys, db)
        try update.execute(arguments: arguments)
        let after = try SearchIndex.entries(keys, db)
        for key in SearchIndex.inRowOrder(keys) {
            guard let old = before[key], let new = after[key] else { continue }
            try statement(SearchIndex.delete).execute(arguments: [key, SearchIndex.text(of: old)])
            try statement(SearchIndex.insert).execute(arguments: [key, SearchIndex.text(of: new)])
        }
    }

    /// An author's identity changed: their profile is resolved again.
    func reresolve(did: String) throws {
        try statement("UPDATE author SET pending = 1 WHERE handle = ?").execute(arguments: [did])
    }

    /// Removes the posts of the account `did` (its author row is kept by that DID whatever handle it resolved to);
    /// how many there were.
    mutating func removeAccount(did: String) throws -> Int {
        let keys = try Int64.fetchAll(
            statement(
                "SELECT p.id FROM author a JOIN post p ON p.authorID = a.id AND p.network <> 0 WHERE a.handle = ?"),
            arguments: [did])
        return try remove(keys: keys)
    }
}
