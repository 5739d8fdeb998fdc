import Posts
import WireJSON

/// One event of Bluesky's Jetstream firehose (`wantedCollections=app.bsky.feed.post`), as the live index needs it.
/// Every event carries `time_us`, the cursor a restart resumes from.
package enum JetstreamEvent: Sendable, Equatable {
    /// A new post, and the languages its author says it is in (`langs`). Its author is the DID until the profile
    /// is resolved (`Author.screenName` is the DID).
    case create(Post, langs: [String], cursor: Int64)
    /// A post deleted by its author: its `at://` URI.
    case delete(uri: String, cursor: Int64)
    /// An account's handle changed (or was confirmed): its posts' author needs resolving again.
    case identity(did: String, cursor: Int64)
    /// An account deleted, taken down or suspended (`kind: account`, `active: false` with that `status`): its posts
    /// go with it. A deactivated account may come back, and keeps them.
    case accountGone(did: String, cursor: Int64)
    /// Anything else the stream sends (an update, another collection, an account that is active again or
    /// deactivated): only its cursor counts.
    case other(cursor: Int64)

    /// The account statuses whose posts leave: the relay's words for an account that is gone.
    static let goneStatuses: Set<String> = ["deleted", "takendown", "suspended"]

    package var cursor: Int64 {
        switch self {
        case .create(_, _, let cursor), .delete(_, let cursor), .identity(_, let cursor),
            .accountGone(_, let cursor), .other(let cursor):
            cursor
        }
    }

    /// The event in one line of the stream (one WebSocket text message), or why it cannot be stored: one sentence.
    package static func decode(_ bytes: [UInt8]) throws(JetstreamError) -> JetstreamEvent {
        let json: JSONValue
        do { json = try JSONValue.document(bytes) } catch { throw .malformed("not JSON (\(error))") }
        return try decode(json)
    }

    /// An event already parsed (a line of a file of events).
    package static func decode(_ json: JSONValue) throws(JetstreamError) -> JetstreamEvent {
        guard let cursor = json["time_us"]?.string.flatMap({ Int64($0) }) else { throw .malformed("no time_us") }
        guard let did = json["did"]?.nonEmptyString, isDID(did) else { throw .malformed("no did") }
        switch json["kind"]?.string {
        case "commit": return try commit(json["commit"], did: did, cursor: cursor)
        case "identity": return .identity(did: did, cursor: cursor)
        case "account":
            let account = json["account"]
            guard case .bool(false)? = account?["active"], let status = account?["status"]?.string,
                goneStatuses.contains(status)
            else { return .other(cursor: cursor) }
            return .accountGone(did: did, cursor: cursor)
        default: return .other(cursor: cursor)
        }
    }

    /// `did:plc:…` or `did:web:…`: DID syntax, which is also safe in the CDN's paths.
    private static func isDID(_ text: String) -> Bool {
        text.hasPrefix("did:") && text.count <= 2048
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ":._-%".contains($0)) }
    }

    private static func commit(
        _ commit: JSONValue?, did: String, cursor: Int64
    ) throws(JetstreamError) -> JetstreamEvent {
        guard let commit, commit["collection"]?.string == "app.bsky.feed.post" else { return .other(cursor: cursor) }
        guard let rkey = commit["rkey"]?.nonEmptyString, !rkey.contains("/") else {
            throw .malformed("a commit without an rkey")
        }
        let uri = "at://\(did)/app.bsky.feed.post/\(rkey)"
        switch commit["operation"]?.string {
        case "create":
            let record = commit["record"]
            let langs = record?["langs"]?.array?.compactMap(\.nonEmptyString) ?? []
            return .create(
                try PostRecordDecoder.post(record, uri: uri, did: did, time: cursor), langs: langs, cursor: cursor)
        case "delete": return .delete(uri: uri, cursor: cursor)
        default: return .other(cursor: cursor)  // an edit: Bluesky posts are not edited in place by its clients
        }
    }
}

/// Why a Jetstream event was skipped.
package enum JetstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case invalidRecord(String, uri: String)

    package var description: String {
        switch self {
        case .malformed(let reason): "a malformed Jetstream event: \(reason)"
        case .invalidRecord(let reason, let uri): "\(uri) does not follow app.bsky.feed.post: \(reason)"
        }
    }
}
