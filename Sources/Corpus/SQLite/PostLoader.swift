import GRDB
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads whole posts for a list of order keys: three queries whatever the number of posts.
struct PostLoader {
    let db: Database

    /// The posts of `ids` by order key; keys not in the corpus are left out.
    func posts(_ ids: [Int64]) throws -> [Int64: Post] {
        guard !ids.isEmpty else { return [:] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let mentions = try StoredMention.byPost(in: db, list: list)
        let media = try StoredMedium.byPost(in: db, list: list)
        var posts: [Int64: Post] = [:]
        let rows = try StoredPost.fetchCursor(db.cachedStatement(sql: StoredPost.sql), arguments: [list])
        while let row = try rows.next() {
            posts[row.key] = row.post(mentions: mentions[row.key] ?? [], media: media[row.key] ?? [])
        }
        return posts
    }
}

/// A post's row with its author's and its reposter's, as the loader reads it.
private struct StoredPost: FetchableRecord {
    enum Columns: String, ColumnExpression {
        case key, network, postID, created, text, quotedID, inReplyToID, inReplyToUser, displayStart, url
        case contentWarning
        case isSensitive, card, language, quoted, handle, name, picture, reposterHandle, reposterName, reposterPicture
        case signedInOnly
    }

    /// A resolved Bluesky author is shown by the handle its DID resolved to, anyone else by the handle they came with.
    static let sql = """
        SELECT p.id AS key, p.network, p.postID, p.created, p.text, p.quotedID, p.inReplyToID, p.inReplyToUser,
               p.displayStart, p.url,
               p.contentWarning, p.isSensitive, p.card, p.language, p.quoted,
               coalesce(a.resolvedHandle, a.handle) AS handle, a.name, a.profileImageURL AS picture, a.signedInOnly,
               coalesce(r.resolvedHandle, r.handle) AS reposterHandle, r.name AS reposterName,
               r.profileImageURL AS reposterPicture
        FROM post p JOIN author a ON a.id = p.authorID LEFT JOIN author r ON r.id = p.reposterID
        WHERE p.id IN (SELECT value FROM json_each(?))
        """

    let key: Int64
    let network: Network
    /// Nil for an X post, whose id is its order key.
    let postID: String?
    let created: Int64
    let text: String
    let quotedID: String?
    let inReplyToID: String?
    let inReplyToUser: String?
    let displayStart: Int
    let url: String?
    let contentWarning: String?
    let isSensitive: Bool
    let card: String?
    let language: String?
    let quoted: String?
    let author: Author
    let reposter: Author?
    let signedInOnly: Bool

    init(row: Row) {
        key = row[Columns.key]
        network = Network(code: row[Columns.network]) ?? .twitter
        postID = row[Columns.postID]
        created = row[Columns.created]
        text = row[Columns.text]
        quotedID = row[Columns.quotedID]
        inReplyToID = row[Columns.inReplyToID]
        inReplyToUser = row[Columns.inReplyToUser]
        displayStart = row[Columns.displayStart]
        url = row[Columns.url]
        contentWarning = row[Columns.contentWarning]
        isSensitive = row[Columns.isSensitive]
        card = row[Columns.card]
        language = row[Columns.language]
        quoted = row[Columns.quoted]
        author = Author(handle: row[Columns.handle], name: row[Columns.name], profileImageURL: row[Columns.picture])
        reposter = (row[Columns.reposterHandle] as String?).map { handle in
            Author(handle: handle, name: row[Columns.reposterName], profileImageURL: row[Columns.reposterPicture])
        }
        signedInOnly = row[Columns.signedInOnly]
    }

    func post(mentions: [StoredMention], media: [MediaItem]) -> Post {
        let scalars = Array(text.unicodeScalars)
        return Post(
            network: network, id: postID ?? String(key), created: Date(millisecondsSince1970: created), author: author,
            text: text, mentions: mentions.compactMap { $0.mention(in: scalars) }, media: media, repostedBy: reposter,
            quotedID: quotedID, quoted: quoted.flatMap { try? Post(jsonText: $0) },
            inReplyToID: inReplyToID, inReplyToUser: inReplyToUser, displayStart: displayStart,
            contentWarning: contentWarning,
            isSensitive: isSensitive,
            card: card.flatMap { try? JSONDecoder().decode(LinkCard.self, from: Data($0.utf8)) },
            url: url, language: language, signedInOnly: signedInOnly
        )
    }
}

/// A mention as stored: its keyword is the text's slice.
private struct StoredMention: FetchableRecord {
    enum Columns: String, ColumnExpression {
        case key = "postKey"
        case kind, start, end, expandedURL, display
    }

    let key: Int64
    let kind: Int
    let start: Int
    let end: Int
    let expandedURL: String?
    let display: String?

    init(row: Row) {
        key = row[Columns.key]
        kind = row[Columns.kind]
        start = row[Columns.start]
        end = row[Columns.end]
        expandedURL = row[Columns.expandedURL]
        display = row[Columns.display]
    }

    /// The mentions of the posts in `list` (a JSON array of order keys), in each post's order.
    static func byPost(in db: Database, list: String) throws -> [Int64: [StoredMention]] {
        let rows = try fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT postKey, kind, start, end, expandedURL, display FROM mention
                    WHERE postKey IN (SELECT value FROM json_each(?)) ORDER BY postKey, position
                    """), arguments: [list])
        var mentions: [Int64: [StoredMention]] = [:]
        while let mention = try rows.next() { mentions[mention.key, default: []].append(mention) }
        return mentions
    }

    func mention(in scalars: [Unicode.Scalar]) -> Mention? {
        guard let kind = Mention.Kind(code: kind), 0 <= start, start <= end, end <= scalars.count else { return nil }
        let keyword = String(String.UnicodeScalarView(scalars[start..<end]))
        return Mention(kind: kind, keyword: keyword, range: start..<end, expandedURL: expandedURL, display: display)
    }
}

/// A picture, video or sound as stored.
private enum StoredMedium {
    enum Columns: String, ColumnExpression {
        case key = "postKey"
        case url, aspectRatio, kind, playURL, alt, duration
    }

    /// The media of the posts in `list` (a JSON array of order keys), in each post's order.
    static func byPost(in db: Database, list: String) throws -> [Int64: [MediaItem]] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT postKey, url, aspectRatio, kind, playURL, alt, duration FROM media
                    WHERE postKey IN (SELECT value FROM json_each(?)) ORDER BY postKey, position
                    """), arguments: [list])
        var media: [Int64: [MediaItem]] = [:]
        while let row = try rows.next() {
            let item = MediaItem(
                url: row[Columns.url], aspectRatio: row[Columns.aspectRatio],
                kind: MediaItem.Kind(storedName: row[Columns.kind]), playURL: row[Columns.playURL],
                alt: row[Columns.alt],
                duration: row[Columns.duration])
            media[row[Columns.key], default: []].append(item)
        }
        return media
    }
}
