import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the tweets of a file in any supported format, detected from the content: v1.1 (search pages, statuses,
/// arrays, extended and compat modes), v2 (`search/recent` pages, twarc2 lines, `twarc2 flatten` lines), Twitter
/// archives (`tweets.js`, `tweet.js`), Gnip Activity Streams, recorded responses under `"body"`, JSON Lines or
/// values back to back of any of these.
public struct TweetFileReader: Sequence, IteratorProtocol, Sendable {
    private var reader: PostItemReader<DocumentDecoder>

    public var name: String { reader.name }

    /// Reads `bytes` as the contents of a file called `name`.
    public init(bytes: [UInt8], name: String, archiveAccount: Author? = nil) {
        reader = PostItemReader(
            name: name, items: JSONItemReader(bytes: bytes, ignoring: DocumentDecoder.unreadKeys),
            decoder: DocumentDecoder(archiveAccount: archiveAccount))
    }

    /// Reads the file at `path` a chunk at a time (memory stays flat however big it is); an archive's account
    /// comes from the `account.js` beside it.
    public init(path: String) throws(DecodingProblem) {
        let items = JSONItemReader(
            chunks: FileChunks(file: try OpenFile(path: path)), ignoring: DocumentDecoder.unreadKeys)
        reader = PostItemReader(
            name: path, items: items, decoder: DocumentDecoder(archiveAccount: TwitterArchive.account(of: items, path)))
    }

    public mutating func next() -> PostFileEvent? {
        reader.next()
    }
}

/// A Twitter archive's `data/` folder: `tweets.js` names no author, its `account.js` does.
package enum TwitterArchive {
    /// The account of the archive whose data file `path` is, when `items` shows it is one (`window.YTD.…`).
    package static func account(of items: JSONItemReader, _ path: String) -> Author? {
        guard items.isArchive, let bytes = try? OpenFile(path: sibling("account.js", of: path)).readAll() else {
            return nil
        }
        return account(in: bytes)
    }

    private static func sibling(_ name: String, of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// `window.YTD.account.part0 = [{"account": {"username": …, "accountDisplayName": …}}]`.
    private static func account(in bytes: [UInt8]) -> Author? {
        var reader = JSONItemReader(bytes: bytes)
        while let result = reader.next() {
            guard case .item(let item) = result, let account = item.value["account"],
                let username = account["username"]?.nonEmptyString
            else { continue }
            return Author(handle: username, name: account["accountDisplayName"]?.nonEmptyString ?? username)
        }
        return nil
    }
}
