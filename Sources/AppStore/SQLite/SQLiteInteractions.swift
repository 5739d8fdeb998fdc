import GRDB
import Posts

/// A tally's interactions as the SQLite store's rows, table by table: what counting adds (`SQLiteCounter`) and a
/// removal takes back, from the same rows. Each row is the table's key after the term, then what only an insert
/// writes (`extras`), then its measures.
struct SQLiteInteractions {
    struct Table {
        let name: String
        let keys: [String]
        /// Set when a row is first written, kept after: a post's author, when a later post says who it was.
        let extras: [String]
        let measures: [String]
        let rows: [[DatabaseValue]]

        /// The rows without their extras, as a removal matches them.
        var keyedMeasures: [[DatabaseValue]] {
            rows.map { Array($0.prefix(keys.count)) + $0.suffix(measures.count) }
        }

        /// The upsert that adds the rows (a `VALUES` list after the term, `?1`).
        func upsert(_ values: String) -> String {
            let columns = (["termID"] + keys + extras + measures).joined(separator: ", ")
            let added = measures.map { "\($0) = \($0) + excluded.\($0)" }
            let kept = extras.map { "\($0) = coalesce(\($0), excluded.\($0))" }
            return """
                INSERT INTO \(name)(\(columns)) VALUES \(values)
                ON CONFLICT(\((["termID"] + keys).joined(separator: ", "))) DO UPDATE SET \
                \((added + kept).joined(separator: ", "))
                """
        }
    }

    let tables: [Table]

    /// `ids`: the mentions' ids by key; an interaction whose user has none (never: counting writes them first) is
    /// left out.
    init(_ tally: MentionTally, ids: [String: Int64]) {
        func id(_ place: Int) -> Int64? { ids[tally.mentions[place].key] }
        func edges(_ entries: [MentionTally.InteractionEntry], hourly: Bool) -> [[DatabaseValue]] {
            entries.compactMap { entry in
                guard let target = id(entry.target), let source = id(entry.source) else { return nil }
                return [entry.kind.rawValue.databaseValue] + (hourly ? [entry.hour.databaseValue] : [])
                    + [target.databaseValue, source.databaseValue, entry.weight.databaseValue]
            }
        }
        let users = tally.interactionUsers.compactMap { entry in
            id(entry.user).map {
                [
                    entry.kind.rawValue.databaseValue, $0.databaseValue, entry.sent.databaseValue,
                    entry.received.databaseValue,
                ]
            }
        }
        let posts = tally.interactedPosts.map { entry in
            [
                entry.kind.rawValue.databaseValue, entry.post.network.code.databaseValue, entry.post.id.databaseValue,
                (entry.author.flatMap(id)).databaseValue, entry.count.databaseValue,
            ]
        }
        tables = [
            Table(
                name: "interactionHour", keys: ["kind", "hour", "targetID", "sourceID"], extras: [],
                measures: ["weight"], rows: edges(tally.interactions, hourly: true)),
            Table(
                name: "interaction", keys: ["kind", "targetID", "sourceID"], extras: [], measures: ["weight"],
                rows: edges(tally.interactionTotals, hourly: false)),
            Table(
                name: "interactionUser", keys: ["kind", "userID"], extras: [], measures: ["sent", "received"],
                rows: users),
            Table(
                name: "interactionPost", keys: ["kind", "network", "postID"], extras: ["authorID"],
                measures: ["count"], rows: posts),
        ].filter { !$0.rows.isEmpty }
    }

    /// The tables' schema (migration v13).
    static let schema = """
        -- Who acted on whom among a term's counted posts (kind 1 reply, 2 quote, 3 repost), from the one acted on:
        -- the edges into a network's nodes are one range of the key each. Users are their `mention` rows.
        CREATE TABLE interaction (
            termID INTEGER NOT NULL REFERENCES recent(id),
            kind INTEGER NOT NULL,
            targetID INTEGER NOT NULL REFERENCES mention(id),
            sourceID INTEGER NOT NULL REFERENCES mention(id),
            weight INTEGER NOT NULL,
            PRIMARY KEY (termID, kind, targetID, sourceID)
        ) WITHOUT ROWID;
        -- The same by the hour of the posts' own times: a time window is one range of the key.
        CREATE TABLE interactionHour (
            termID INTEGER NOT NULL REFERENCES recent(id),
            kind INTEGER NOT NULL,
            hour INTEGER NOT NULL,
            targetID INTEGER NOT NULL REFERENCES mention(id),
            sourceID INTEGER NOT NULL REFERENCES mention(id),
            weight INTEGER NOT NULL,
            PRIMARY KEY (termID, kind, hour, targetID, sourceID)
        ) WITHOUT ROWID;
        -- Per user, how many interactions they made and received: a network's nodes are the first entries of the
        -- index.
        CREATE TABLE interactionUser (
            termID INTEGER NOT NULL REFERENCES recent(id),
            kind INTEGER NOT NULL,
            userID INTEGER NOT NULL REFERENCES mention(id),
            sent INTEGER NOT NULL,
            received INTEGER NOT NULL,
            PRIMARY KEY (termID, kind, userID)
        ) WITHOUT ROWID;
        CREATE INDEX interactionUser_by_total ON interactionUser(termID, kind, sent + received DESC, userID);
        -- The posts replied to and quoted, how many times, and their author when a post said who.
        CREATE TABLE interactionPost (
            termID INTEGER NOT NULL REFERENCES recent(id),
            kind INTEGER NOT NULL,
            network INTEGER NOT NULL,
            postID TEXT NOT NULL,
            authorID INTEGER REFERENCES mention(id),
            count INTEGER NOT NULL,
            PRIMARY KEY (termID, kind, network, postID)
        ) WITHOUT ROWID;
        CREATE INDEX interactionPost_by_count ON interactionPost(termID, kind, count DESC);
        """

    /// What a deleted term leaves of these tables.
    static let termRows = ["interaction", "interactionHour", "interactionUser", "interactionPost"].map {
        "DELETE FROM \($0) WHERE termID = ?"
    }
}
