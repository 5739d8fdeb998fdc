import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The hourly counts of what earlier releases counted, from the posts they stored: every counted post is still
/// stored (a post goes only when no term counts it), so the hours add up to the counts.
enum TrendBackfill {
    private struct Key: Hashable {
        let termID: Int64
        let mention: String
        let hour: Int
    }

    static func run(_ db: Database) throws {
        var counts: [Key: Int] = [:]
        // Each post decoded once, with every term that counted it.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT p.json, json_group_array(c.termID) AS terms FROM post p JOIN countedPost c ON c.postRef = p.id
                GROUP BY p.id
                """)
        let decoder = JSONDecoder()
        while let row = try rows.next() {
            // A post this release cannot read any more has no hours; its counts stay as they were.
            let json: String = row["json"]
            let termIDs: String = row["terms"]
            guard let post = try? decoder.decode(Post.self, from: Data(json.utf8)),
                let terms = try? decoder.decode([Int64].self, from: Data(termIDs.utf8))
            else { continue }
            let hour = TrendHour.of(post.created)
            for mention in MentionTally.distinctMentions(of: post) {
                for termID in terms { counts[Key(termID: termID, mention: mention.key, hour: hour), default: 0] += 1 }
            }
        }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO mentionTrend(termID, mentionID, hour, count) SELECT ?, id, ?, ? FROM mention WHERE key = ?
                """)
        for (key, count) in counts { try insert.execute(arguments: [key.termID, key.hour, count, key.mention]) }
    }
}
