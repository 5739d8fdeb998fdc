import PostgresNIO
import Posts

/// Reads whole posts from the PostgreSQL corpus: the stored JSON, shown with its people as they are now.
enum PostgresPostLoader {
    /// A resolved Bluesky author is shown by the handle its DID resolved to, anyone else by the handle they came with.
    static let select = """
        SELECT p.key, p.json, coalesce(a.resolved_handle, a.handle) AS handle, a.name, a.picture, a.signed_in_only,
               coalesce(r.resolved_handle, r.handle) AS reposter_handle, r.name AS reposter_name,
               r.picture AS reposter_picture
        FROM corpus_post p JOIN corpus_author a ON a.id = p.author_id LEFT JOIN corpus_author r ON r.id = p.reposter_id
        """

    static func post(_ row: PostgresRandomAccessRow) throws -> Post {
        let post = try Post(jsonText: try row["json"].decode(String.self))
        let author = Author(
            handle: try row["handle"].decode(String.self), name: try row["name"].decode(String.self),
            profileImageURL: try row["picture"].decode(String?.self))
        let reposter = try row["reposter_handle"].decode(String?.self).map { handle in
            Author(
                handle: handle, name: try row["reposter_name"].decode(String.self),
                profileImageURL: try row["reposter_picture"].decode(String?.self))
        }
        return post.showing(
            author: author, repostedBy: reposter, signedInOnly: try row["signed_in_only"].decode(Bool?.self) ?? false)
    }

    static func key(_ row: PostgresRandomAccessRow) throws -> Int64 {
        try row["key"].decode(Int64.self)
    }
}
