import Posts

/// A post as the corpus's rows hold it, made before the write transaction: everything that needs no database — the
/// columns' values, the operator terms, the words cut and joined — is ready, so the writer's thread, which every
/// batch of an import waits for, only writes. An import makes the records of the next batch while the last is
/// written (`SQLiteCorpus.add(batches:)`).
package struct PostRecord: Sendable {
    package let post: Post
    /// An X post's order key, its own id; nil for another network's (a free key is found in the transaction) and for
    /// an X id the corpus cannot hold.
    package let ownKey: Int64?
    package let created: Int64
    /// The link card and the quoted post as stored: JSON.
    package let card: String?
    package let quoted: String?
    /// The operator terms the post is found by, but for the handle a Bluesky author's DID resolved to, which only
    /// the corpus knows.
    private let terms: Set<String>
    /// The post's row in the search index (`SearchTokens`), with the same exception.
    package let searchText: String

    package init(_ post: Post) {
        self.post = post
        ownKey = post.network == .twitter && TweetID.isValid(post.id) ? Int64(post.id) : nil
        created = post.created.millisecondsSince1970
        card = post.card.map(PublicJSON.text)
        quoted = post.quoted?.storedJSON
        let entry = IndexEntry(post)
        terms = entry.terms
        searchText = SearchIndex.text(of: entry)
    }

    /// The row in the search index, found by `from:` `name` too: the handle the author's DID resolved to.
    func searchText(alsoFrom name: String?) -> String {
        guard let name, !terms.contains(IndexEntry.from(name)) else { return searchText }
        return searchText + " " + SearchTokens.term(IndexEntry.from(name))
    }

    /// The `post` row under order key `key`, in `CorpusInserts.post`'s order.
    package func postRow(key: Int64, author: Int64, reposter: Int64?) -> [RawValue] {
        let isX = post.network == .twitter
        return [
            .integer(key), .integer(created), .integer(author), RawValue(reposter), .text(post.text),
            RawValue(post.quotedID), RawValue(post.inReplyToID), RawValue(post.displayStart),
            RawValue(post.network.code), RawValue(isX ? nil : post.id), RawValue(isX ? nil : post.url),
            RawValue(post.contentWarning), RawValue(post.isSensitive), RawValue(card), RawValue(post.language),
            RawValue(quoted), RawValue(post.inReplyToUser),
        ]
    }

    /// The `mention` rows, in `CorpusInserts.mention`'s order.
    package func mentionRows(key: Int64) -> [[RawValue]] {
        post.mentions.enumerated().map { position, mention in
            [
                .integer(key), RawValue(position), RawValue(mention.kind.code), RawValue(mention.range.lowerBound),
                RawValue(mention.range.upperBound), RawValue(mention.expandedURL), RawValue(mention.display),
            ]
        }
    }

    /// The `media` rows, in `CorpusInserts.media`'s order.
    package func mediaRows(key: Int64) -> [[RawValue]] {
        post.media.enumerated().map { position, item in
            [
                .integer(key), RawValue(position), .text(item.url), .real(item.aspectRatio), .text(item.kind.rawValue),
                RawValue(item.playURL), RawValue(item.alt), RawValue(item.duration),
            ]
        }
    }
}

/// The inserts of a post's rows, as the import runs them and as the floor benchmark does (`smashtag-bench
/// import-floor`): the same statements on both sides of that comparison.
package enum CorpusInserts {
    package static let post = """
        INSERT OR IGNORE INTO post(id, created, authorID, reposterID, text, quotedID, inReplyToID, displayStart,
            network, postID, url, contentWarning, isSensitive, card, language, quoted, inReplyToUser)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    package static let mention =
        "INSERT INTO mention(postKey, position, kind, start, end, expandedURL, display) VALUES (?, ?, ?, ?, ?, ?, ?)"
    package static let media = """
        INSERT INTO media(postKey, position, url, aspectRatio, kind, playURL, alt, duration)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    package static let searchIndex = SearchIndex.insert
}
