#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import Posts
import Twitter

/// Reads whole tweets for a list of ids: three queries whatever the number of tweets.
struct PostLoader {
    let db: Database

    /// The tweets of `ids` by id; ids not in the corpus are left out.
    func tweets(_ ids: [Int64]) throws -> [Int64: Post] {
        guard !ids.isEmpty else { return [:] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let mentions = try self.mentions(list)
        let media = try self.media(list)
        var tweets: [Int64: Post] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT t.id, t.created, t.text, t.quotedID, t.inReplyToID, t.displayStart,
                   coalesce(u.handle, u.screenName), u.name, u.profileImageURL, coalesce(r.handle, r.screenName), r.name, r.profileImageURL,
                   t.network, t.postID, t.url, t.contentWarning, t.isSensitive, t.card
            FROM tweet t JOIN user u ON u.id = t.userID LEFT JOIN user r ON r.id = t.retweeterID
            WHERE t.id IN (SELECT value FROM json_each(?))
            """), arguments: [list])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            tweets[id] = tweet(row, mentions: mentions[id] ?? [], media: media[id] ?? [])
        }
        return tweets
    }

    private func tweet(_ row: Row, mentions: [StoredMention], media: [MediaItem]) -> Post {
        let text: String = row[2]
        let scalars = Array(text.unicodeScalars)
        let retweeter: String? = row[9]
        let card: String? = row[17]
        return Post(
            network: Network(code: row[12]) ?? .twitter,
            id: row[13] ?? String(row[0] as Int64),
            created: Date(millisecondsSince1970: row[1]),
            user: Author(screenName: row[6], name: row[7], profileImageURL: row[8]),
            text: text,
            mentions: mentions.compactMap { $0.mention(in: scalars) },
            media: media,
            repostedBy: retweeter.map { Author(screenName: $0, name: row[10], profileImageURL: row[11]) },
            quotedID: row[3],
            inReplyToID: row[4],
            displayStart: row[5],
            contentWarning: row[15],
            isSensitive: row[16],
            card: card.flatMap { try? JSONDecoder().decode(LinkCard.self, from: Data($0.utf8)) },
            url: row[14]
        )
    }

    private func mentions(_ list: String) throws -> [Int64: [StoredMention]] {
        var mentions: [Int64: [StoredMention]] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT tweetID, kind, start, end, expandedURL, display FROM mention
            WHERE tweetID IN (SELECT value FROM json_each(?)) ORDER BY tweetID, position
            """), arguments: [list])
        while let row = try rows.next() {
            mentions[row[0], default: []].append(StoredMention(kind: row[1], start: row[2], end: row[3], expandedURL: row[4], display: row[5]))
        }
        return mentions
    }

    private func media(_ list: String) throws -> [Int64: [MediaItem]] {
        var media: [Int64: [MediaItem]] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT tweetID, url, aspectRatio, kind, playURL, alt, duration FROM media
            WHERE tweetID IN (SELECT value FROM json_each(?)) ORDER BY tweetID, position
            """), arguments: [list])
        while let row = try rows.next() {
            let item = MediaItem(
                url: row["url"], aspectRatio: row["aspectRatio"], kind: MediaItem.Kind(storedName: row["kind"]),
                playURL: row["playURL"], alt: row["alt"], duration: row["duration"])
            media[row["tweetID"], default: []].append(item)
        }
        return media
    }
}

/// A mention as stored: its keyword is the text's slice.
private struct StoredMention {
    let kind: Int
    let start: Int
    let end: Int
    let expandedURL: String?
    let display: String?

    func mention(in scalars: [Unicode.Scalar]) -> Mention? {
        guard let kind = Mention.Kind(code: kind), 0 <= start, start <= end, end <= scalars.count else { return nil }
        let keyword = String(String.UnicodeScalarView(scalars[start..<end]))
        return Mention(kind: kind, keyword: keyword, range: start..<end, expandedURL: expandedURL, display: display)
    }
}
