import PostgresNIO
import Posts

/// Which servers of a fleet gave each post (Mastodon's instances asked as one, `Post.seenOn`): a row per post and
/// server, added as pages are counted, so a post another server gives later adds that server and counts nothing
/// twice. Keyed by the post's key rather than its row, so that PostgreSQL writes it in the statement that stores the
/// page. A post's rows go with it, whatever deletes it (a removal, a term that goes, an orphan batch): a fleet's post
/// is named by its `uri`, which names its author.
enum PostServers {
    static let sqlite = [
        """
        CREATE TABLE postServer (
            network INTEGER NOT NULL, postID TEXT NOT NULL, server TEXT NOT NULL,
            PRIMARY KEY (network, postID, server)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER postServer_goes_with_its_post AFTER DELETE ON post BEGIN
            DELETE FROM postServer WHERE network = old.network AND postID = old.postID;
        END
        """,
    ]
    static let postgres = [
        """
        CREATE TABLE post_server (
            network smallint NOT NULL, post_id text NOT NULL, server text NOT NULL,
            PRIMARY KEY (network, post_id, server)
        )
        """,
        """
        CREATE FUNCTION smashtag_post_servers_go() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM post_server s USING gone g WHERE s.network = g.network AND s.post_id = g.post_id;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER post_servers_go AFTER DELETE ON post REFERENCING OLD TABLE AS gone
        FOR EACH STATEMENT EXECUTE FUNCTION smashtag_post_servers_go()
        """,
    ]

    /// Each (post, server) pair of the page's posts that were seen on servers.
    static func rows(_ page: PreparedPage) -> [(network: Int, id: String, server: String)] {
        page.storable.flatMap { storable in
            storable.post.seenOn.map { (storable.post.network.code, storable.post.id, $0) }
        }
    }
}

extension PostgresQuery.StringInterpolation {
    /// `WITH … AS (INSERT INTO post_server …)` before the statement that stores the page, when its posts were seen
    /// on servers: in that statement, so in its transaction. Nothing otherwise.
    mutating func appendInterpolation(serversOf page: PreparedPage) {
        let rows = PostServers.rows(page)
        guard !rows.isEmpty else { return }
        appendLiteral("WITH seen AS (INSERT INTO post_server (network, post_id, server) SELECT * FROM unnest(")
        appendInterpolation(rows.map(\.network))
        appendLiteral("::smallint[], ")
        appendInterpolation(rows.map(\.id))
        appendLiteral("::text[], ")
        appendInterpolation(rows.map(\.server))
        appendLiteral("::text[]) ON CONFLICT DO NOTHING) ")
    }
}
