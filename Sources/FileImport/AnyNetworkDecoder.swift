import Bluesky
import Mastodon
import Posts
import Twitter
import WireJSON

/// Recognises which network and format an item of a file is from its keys, and hands it to that network's decoder:
/// Smashtag's own posts (its NDJSON export and stored form), Mastodon statuses (an API answer's array, one per line,
/// a search's `statuses`), Bluesky answers (`posts`, `feed`, `thread`) and post views, and everything else to X's
/// `DocumentDecoder`, so X's files read exactly as `TweetFileReader` reads them.
struct AnyNetworkDecoder: ItemDecoder {
    private let x: DocumentDecoder

    static let formats = """
        a Smashtag post, a Mastodon status, a Bluesky post view or an answer of posts or of a feed, \
        \(DocumentDecoder.formats)
        """

    init(archiveAccount: Author?) {
        x = DocumentDecoder(archiveAccount: archiveAccount, expected: Self.formats)
    }

    func decode(_ value: JSONValue) -> [ItemOutcome] {
        switch value {
        case .array(let elements): numbered(elements.map(decode), "item")
        case .object(let keys): decode(object: value, keys: keys)
        default: x.decode(value)
        }
    }

    /// X's shortcut takes only v2 pages and tweets, whose members none of the checks below looks for.
    func decode(line: UnsafeBufferPointer<UInt8>) -> [ItemOutcome]? {
        x.decode(line: line)
    }

    private func decode(object: JSONValue, keys: JSONObject) -> [ItemOutcome] {
        // A recorded response (`_source` says where from), as in the shared fixtures: the body is the answer.
        if keys["_source"] != nil, let body = keys["body"], body.object != nil || body.array != nil {
            return decode(body)
        }
        // Smashtag's own: no network's format has a `network` member.
        if keys["network"] != nil, keys["user"] != nil || keys["created"] != nil { return [smashtag(object)] }
        // A Mastodon status has HTML `content` (empty for a boost, which has a `reblog`), which no tweet has, and an
        // `account` or a `created_at`: one lacking the other is still a status, told what it lacks.
        if keys["content"] != nil || keys["reblog"] != nil, keys["account"] != nil || keys["created_at"] != nil {
            return [mastodon(object)]
        }
        // A Mastodon search (`accounts`, `statuses`, `hashtags`), before X's v1.1 search page claims `statuses`.
        if keys["accounts"] != nil, let statuses = keys["statuses"]?.array {
            return numbered(statuses.map { [mastodon($0)] }, "status")
        }
        if let items = FeedResponse.items(of: object) { return numbered(items.map { [bluesky($0)] }, "post") }
        // A Bluesky post view (or a record with its `at://` URI), or a feed item `{post, reason}`, one per line.
        if keys["post"]?["uri"] != nil { return [bluesky(object)] }
        if let uri = keys["uri"]?.string, uri.hasPrefix("at://") {
            // at://DID/COLLECTION/KEY: a like, a follow, a feed generator are records of other collections.
            let collection = uri.split(separator: "/").dropFirst(2).first.map(String.init) ?? ""
            guard collection == "app.bsky.feed.post" else {
                return [.skipped("a Bluesky \(collection) record, not a post")]
            }
            return [bluesky(object)]
        }
        // An error body as Mastodon, Bluesky and X's v1.1 send one; X's lists of `errors` go to its decoder.
        if let error = keys["error"]?.nonEmptyString {
            let detail = (keys["message"] ?? keys["error_description"])?.nonEmptyString.map { " (\($0))" } ?? ""
            return [.skipped("an API error response, not posts: \(error)\(detail)")]
        }
        return x.decode(object)
    }

    /// An X post in Smashtag's own form keeps the rule every X decoder keeps, so what `inspect` prints `import` stores.
    private func smashtag(_ post: JSONValue) -> ItemOutcome {
        do throws(PostJSONError) {
            let post = try Post(json: post)
            if post.network == .twitter, let problem = TweetID.problem(with: post.id) { return .problem(problem) }
            return .post(post)
        } catch {
            return .problem(error.description)
        }
    }

    private func mastodon(_ status: JSONValue) -> ItemOutcome {
        do throws(MastodonDecodingError) { return .post(try StatusDecoder.post(from: status)) } catch {
            return .problem(error.description)
        }
    }

    private func bluesky(_ view: JSONValue) -> ItemOutcome {
        do throws(BlueskyDecodingError) { return .post(try PostViewDecoder.post(from: view)) } catch {
            return .problem(error.description)
        }
    }

    /// The elements of an array that is one item, each problem saying which element it is ("post 17: …"): they
    /// all share the item's line.
    private func numbered(_ elements: [[ItemOutcome]], _ noun: String) -> [ItemOutcome] {
        elements.enumerated().flatMap { index, outcomes in
            outcomes.map { outcome in
                guard case .problem(let message) = outcome else { return outcome }
                return .problem("\(noun) \(index + 1): \(message)")
            }
        }
    }
}
