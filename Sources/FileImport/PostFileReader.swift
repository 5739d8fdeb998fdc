import Posts
import Twitter
import WireJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the posts of a file in any format Smashtag imports, recognised item by item (`AnyNetworkDecoder`): every
/// format of X's that `TweetFileReader` reads, Smashtag's NDJSON export, Mastodon statuses and Bluesky's answers and
/// post views; one document, JSON Lines, values back to back or a top-level array (each element an item on its own
/// line).
package struct PostFileReader: Sequence, IteratorProtocol, Sendable {
    private var reader: PostItemReader<AnyNetworkDecoder>
    private let file: OpenFile?

    /// Reads the file at `path` a chunk at a time (memory stays flat however big it is); a Twitter archive's account
    /// comes from the `account.js` beside it. `writing`: the posts come written as lines (`written`), not as posts.
    package init(path: String, writing: PostLineWriting? = nil) throws(DecodingProblem) {
        let file = try OpenFile(path: path)
        self.file = file
        let items = JSONItemReader(chunks: FileChunks(file: file), ignoring: Self.unreadKeys)
        reader = PostItemReader(
            name: path, items: items,
            decoder: AnyNetworkDecoder(archiveAccount: TwitterArchive.account(of: items, path)), writing: writing)
    }

    /// Reads `bytes` as the contents of a file called `name`.
    package init(bytes: [UInt8], name: String) {
        file = nil
        reader = PostItemReader(
            name: name, items: JSONItemReader(bytes: bytes, ignoring: Self.unreadKeys),
            decoder: AnyNetworkDecoder(archiveAccount: nil))
    }

    /// X's bulky members, which no network's decoder reads; `description` is read here (media, link previews).
    private static let unreadKeys = DocumentDecoder.bulkyUnreadKeys

    package mutating func next() -> PostFileEvent? {
        reader.next()
    }

    /// How far into the file reading has come, in bytes: where the chunks read so far end (a few MB ahead of the
    /// posts given), enough for a progress bar and its estimate of the time left.
    package var bytesRead: Int {
        guard let file else { return 0 }
        return Swift.max(0, Int(lseek(file.descriptor, 0, SEEK_CUR)))
    }

    /// The size of the file at `path` in bytes, 0 when it cannot be known.
    package static func size(of path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
