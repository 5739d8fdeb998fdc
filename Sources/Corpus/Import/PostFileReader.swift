import Posts
import Twitter
import WireJSON

/// Reads the posts of a file in any format Smashtag imports, recognised item by item (`AnyNetworkDecoder`): every
/// format of X's that `TweetFileReader` reads, Smashtag's NDJSON export, Mastodon statuses and Bluesky's answers and
/// post views; one document, JSON Lines, values back to back or a top-level array (each element an item on its own
/// line).
package struct PostFileReader: Sequence, IteratorProtocol, Sendable {
    private var reader: PostItemReader<AnyNetworkDecoder>

    /// Reads the file at `path` a chunk at a time (memory stays flat however big it is); a Twitter archive's account
    /// comes from the `account.js` beside it.
    package init(path: String) throws(DecodingProblem) {
        let items = JSONItemReader(chunks: FileChunks(file: try OpenFile(path: path)), ignoring: Self.unreadKeys)
        reader = PostItemReader(
            name: path, items: items,
            decoder: AnyNetworkDecoder(archiveAccount: TwitterArchive.account(of: items, path)))
    }

    /// Reads `bytes` as the contents of a file called `name`.
    package init(bytes: [UInt8], name: String) {
        reader = PostItemReader(
            name: name, items: JSONItemReader(bytes: bytes, ignoring: Self.unreadKeys),
            decoder: AnyNetworkDecoder(archiveAccount: nil))
    }

    /// X's bulky members, which no network's decoder reads; `description` is read here (media, link previews).
    private static let unreadKeys = DocumentDecoder.bulkyUnreadKeys

    package mutating func next() -> PostFileEvent? {
        reader.next()
    }
}
