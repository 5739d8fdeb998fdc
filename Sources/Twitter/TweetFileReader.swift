import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What reading a file gives, in file order.
public enum TweetFileEvent: Sendable {
    case post(Post)
    /// A line or object that could not be read; the reader goes on where it can.
    case malformed(DecodingProblem)
    /// Something to know that is not an error: recognised Twitter data that holds no tweets (an API error body,
    /// users, counts…), or text that had to be mended to be read (invalid UTF-8, lone surrogates).
    case note(DecodingProblem)
}

/// Reads the tweets of a file in any supported format, detected from the content: v1.1 (search pages, statuses,
/// arrays, extended and compat modes), v2 (`search/recent` pages, twarc2 lines, `twarc2 flatten` lines), Twitter
/// archives (`tweets.js`, `tweet.js`), Gnip Activity Streams, recorded responses under `"body"`, JSON Lines or
/// values back to back of any of these.
public struct TweetFileReader: Sequence, IteratorProtocol, Sendable {
    public let name: String
    private var items: JSONItemReader
    private let decoder: DocumentDecoder
    private var pending: [TweetFileEvent] = []

    /// Reads `bytes` as the contents of a file called `name`.
    public init(bytes: [UInt8], name: String, archiveAccount: Author? = nil) {
        self.name = name
        self.items = JSONItemReader(bytes: bytes, ignoring: DocumentDecoder.unreadKeys)
        self.decoder = DocumentDecoder(archiveAccount: archiveAccount)
    }

    /// Reads the file at `path` a chunk at a time (memory stays flat however big it is); an archive's account
    /// comes from the `account.js` beside it.
    public init(path: String) throws(DecodingProblem) {
        let items = JSONItemReader(
            chunks: FileChunks(file: try OpenFile(path: path)), ignoring: DocumentDecoder.unreadKeys)
        var account: Author?
        if items.isArchive, let accountBytes = try? OpenFile(path: Self.sibling("account.js", of: path)).readAll() {
            account = Self.archiveAccount(in: accountBytes)
        }
        self.name = path
        self.items = items
        self.decoder = DocumentDecoder(archiveAccount: account)
    }

    public mutating func next() -> TweetFileEvent? {
        while pending.isEmpty {
            guard let result = items.next() else { return nil }
            switch result {
            case .item(let item):
                let outcomes = decoder.decode(item.value)
                let line = outcomes.allSatisfy(\.isTweet) && item.repairs.isEmpty ? 0 : items.line(at: item.offset)
                pending = (outcomes.map { event($0, line: line) } + repairNotes(item.repairs, line: line)).reversed()
            case .malformed(let line, let message):
                pending = [.malformed(DecodingProblem(file: name, line: line, message: message))]
            case .textLine(let line):
                pending = [
                    .note(DecodingProblem(file: name, line: line, message: "a line of text between JSON documents"))
                ]
            }
        }
        return pending.removeLast()
    }

    private func event(_ outcome: ItemOutcome, line: Int) -> TweetFileEvent {
        switch outcome {
        case .tweet(let tweet): .post(tweet)
        case .problem(let message): .malformed(DecodingProblem(file: name, line: line, message: message))
        case .skipped(let message): .note(DecodingProblem(file: name, line: line, message: message))
        }
    }

    private func repairNotes(_ repairs: TextRepairs, line: Int) -> [TweetFileEvent] {
        var notes: [String] = []
        if repairs.contains(.invalidUTF8) { notes.append("bytes that are not UTF-8 were read as U+FFFD (�)") }
        if repairs.contains(.loneSurrogate) {
            notes.append("a \\u escape of half a surrogate pair was read as U+FFFD (�)")
        }
        return notes.map { .note(DecodingProblem(file: name, line: line, message: $0)) }
    }

    private static func sibling(_ name: String, of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// `window.YTD.account.part0 = [{"account": {"username": …, "accountDisplayName": …}}]`.
    private static func archiveAccount(in bytes: [UInt8]) -> Author? {
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
