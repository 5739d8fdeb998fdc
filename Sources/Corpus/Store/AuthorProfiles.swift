import GRDB
import Posts

/// Authors the live index stored by DID, resolved to their profiles: each is shown by handle, name and picture, and
/// found by `from:handle`, from the commit that stores the profile on.
extension PostCorpus {
    /// Up to `limit` DIDs still to resolve, the longest waiting first.
    public func pendingAuthors(limit: Int) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT screenName FROM user WHERE pending = 1 ORDER BY id LIMIT ?", arguments: [limit])
        }
    }

    /// Stores the profiles found, in one transaction; DIDs the directory does not know (a deleted or suspended
    /// account) stay shown as DIDs and are no longer pending.
    public func store(profiles: [AccountProfile], unknown: [String] = []) async throws {
        try await writer.write { db in
            var writer = PostWriter(db: db)
            for profile in profiles { try writer.store(profile) }
            for did in unknown {
                try db.execute(sql: "UPDATE user SET pending = 0 WHERE screenName = ?", arguments: [did])
            }
        }
    }
}

extension PostWriter {
    /// Shows a DID-named author as the profile says and moves their posts' `from:` posting to the new handle.
    mutating func store(_ profile: AccountProfile) throws {
        guard
            let row = try Row.fetchOne(
                statement("SELECT id, handle FROM user WHERE screenName = ?"), arguments: [profile.did])
        else { return }
        let (userID, old): (Int64, String?) = (row["id"], row["handle"])
        try statement("UPDATE user SET handle = ?, name = ?, profileImageURL = ?, pending = 0 WHERE id = ?")
            .execute(arguments: [profile.handle, profile.name, profile.avatarURL, userID])
        guard old?.lowercased() != profile.handle?.lowercased() else { return }
        if let old {
            try statement(
                """
                DELETE FROM posting WHERE termID = (SELECT id FROM term WHERE key = ?)
                    AND tweetID IN (SELECT id FROM tweet WHERE userID = ? AND network <> 0)
                """
            ).execute(arguments: [IndexEntry.from(old), userID])
        }
        if let handle = profile.handle {
            try statement(
                """
                INSERT OR IGNORE INTO posting(termID, tweetID) SELECT ?, id FROM tweet WHERE userID = ? AND \
                network <> 0
                """
            )
            .execute(arguments: [try termID(IndexEntry.from(handle)), userID])
        }
    }

    /// An author's identity changed: their profile is resolved again.
    func reresolve(did: String) throws {
        try statement("UPDATE user SET pending = 1 WHERE screenName = ?").execute(arguments: [did])
    }
}
