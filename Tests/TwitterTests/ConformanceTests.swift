import Foundation
import Testing

@testable import Posts
@testable import Twitter
@testable import WireJSON

/// Every Twitter file in ../shared/fixtures decodes, and every tweet is exact: each mention's keyword is its slice
/// of the text, no entity that agrees with its text is lost, and images have their real aspect ratios.
@Suite(.enabled(if: SharedFixtures.isPresent, "../shared/fixtures is absent"))
struct ConformanceTests {
    /// Broken on purpose: the fixtures README says so.
    static let knownMalformed: Set<String> = ["streaming_output_with_error.jsonl:8"]

    @Test(arguments: SharedFixtures.isPresent ? SharedFixtures.twitterFiles : [])
    func fileDecodesExactly(path: String) throws {
        var reader = try TweetFileReader(path: path)
        var tweets: [Post] = []
        while let event = reader.next() {
            switch event {
            case .post(let tweet): tweets.append(tweet)
            case .malformed(let problem):
                let place = "\((path as NSString).lastPathComponent):\(problem.line ?? 0)"
                #expect(Self.knownMalformed.contains(place), "\(problem)")
            case .note: break
            case .written: Issue.record("a reader not asked to write its posts gave them written")
            }
        }
        let raw = try RawFileFacts(path: path)
        for tweet in tweets {
            try checkMentions(of: tweet)
            checkNoConsistentEntityLost(tweet, raw: raw)
            checkMedia(of: tweet, raw: raw)
            checkDisplay(of: tweet, raw: raw)
        }
    }

    /// Links show their `display_url`; a reply's text starts where `display_text_range` says (its prefix is names
    /// and spaces only, so escaped and unescaped offsets agree there).
    private func checkDisplay(of tweet: Post, raw: RawFileFacts) {
        guard let content = raw.content(matching: tweet.text) else { return }
        for mention in tweet.mentions where mention.kind == .url {
            if let display = content.displays[mention.range] {
                #expect(mention.display == display, "tweet \(tweet.id)")
            }
        }
        if let start = content.displayStart, start > 0, start < tweet.text.unicodeScalars.count {
            #expect(tweet.displayStart == start, "tweet \(tweet.id)")
        }
    }

    private func checkMentions(of tweet: Post) throws {
        let scalars = Array(tweet.text.unicodeScalars)
        var previousEnd = 0
        for mention in tweet.mentions {
            try #require(
                mention.range.lowerBound >= previousEnd && mention.range.upperBound <= scalars.count,
                "\(tweet.id): \(mention)")
            let slice = String(String.UnicodeScalarView(scalars[mention.range]))
            #expect(slice == mention.keyword, "tweet \(tweet.id)")
            previousEnd = mention.range.upperBound
        }
    }

    private func checkNoConsistentEntityLost(_ tweet: Post, raw: RawFileFacts) {
        guard let content = raw.content(matching: tweet.text) else { return }
        let found = Set(tweet.mentions.map { RawFileFacts.Entity(kind: $0.kind, range: $0.range) })
        for entity in content.consistentEntities where entity.range.upperBound <= tweet.text.unicodeScalars.count {
            #expect(found.contains(entity), "tweet \(tweet.id) lost \(entity.kind) at \(entity.range)")
        }
    }

    private func checkMedia(of tweet: Post, raw: RawFileFacts) {
        for item in tweet.media {
            #expect(item.aspectRatio.isFinite && item.aspectRatio > 0)
            if let expected = raw.aspectRatios[item.url] {
                #expect(abs(item.aspectRatio - expected) < 1e-9, "tweet \(tweet.id) image \(item.url)")
            }
        }
    }
}

/// What the raw JSON of a file says, read independently of the decoder: every object with a text and entities
/// (whatever the format names them), and every media object's size.
struct RawFileFacts {
    struct Entity: Hashable {
        let kind: Mention.Kind
        let range: Range<Int>
    }

    struct Content {
        let unescapedText: String
        let consistentEntities: [Entity]
        /// Links' `display_url` by their place in the unescaped text.
        var displays: [Range<Int>: String] = [:]
        /// `display_text_range`'s start.
        var displayStart: Int? = nil
    }

    private(set) var contents: [Content] = []
    private(set) var aspectRatios: [String: Double] = [:]

    init(path: String) throws {
        var reader = JSONItemReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        while let result = reader.next() {
            if case .item(let item) = result { walk(item.value) }
        }
        if path.hasSuffix(".json"),
            let cassette = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
                as? [String: Any],
            let interactions = cassette["interactions"] as? [[String: Any]]
        {
            for body in interactions.compactMap({
                (($0["response"] as? [String: Any])?["body"] as? [String: Any])?["string"] as? String
            }) {
                var inner = JSONItemReader(bytes: Array(body.utf8))
                while let result = inner.next() { if case .item(let item) = result { walk(item.value) } }
            }
        }
    }

    /// The raw content whose unescaped text is this tweet's text (or starts with it: a trailing media link goes).
    func content(matching text: String) -> Content? {
        contents.first { $0.unescapedText == text }
            ?? contents.first { !text.isEmpty && $0.unescapedText.hasPrefix(text) }
    }

    private mutating func walk(_ value: JSONValue) {
        switch value {
        case .array(let elements): for element in elements { walk(element) }
        case .object(let members):
            record(value)
            for member in members.values { walk(member) }
        default: break
        }
    }

    private mutating func record(_ object: JSONValue) {
        if let url = object["media_url_https"]?.string, let large = object["sizes"]?["large"],
            let width = large["w"]?.double, let height = large["h"]?.double, height > 0
        {
            aspectRatios[url] = width / height
        }
        if let url = object["url"]?.string ?? object["preview_image_url"]?.string, object["media_key"] != nil,
            let width = object["width"]?.double, let height = object["height"]?.double, height > 0
        {
            aspectRatios[url] = width / height
        }
        for (textKey, entitiesKey) in [("full_text", "entities"), ("text", "entities"), ("body", "twitter_entities")] {
            if let text = object[textKey]?.string, let entities = object[entitiesKey] {
                var content = Self.content(text: text, entities: entities)
                content.displayStart = object["display_text_range"]?.array?.first?.int
                contents.append(content)
            }
        }
    }

    /// Entities whose escaped slice says what they say, placed on the unescaped text by subtracting the escapes
    /// before them; the earlier one wins where two overlap.
    private static func content(text: String, entities: JSONValue) -> Content {
        let scalars = Array(text.unicodeScalars)
        var consistent: [Entity] = []
        var displays: [Range<Int>: String] = [:]
        for (kind, range, token, display) in wireEntities(entities) where range.upperBound <= scalars.count {
            let slice = String(String.UnicodeScalarView(scalars[range]))
            guard fold(slice) == fold(token), !consistent.contains(where: { $0.range.overlaps(range) }) else {
                continue
            }
            let placed = unescapedOffset(range.lowerBound, in: scalars)..<unescapedOffset(range.upperBound, in: scalars)
            consistent.append(Entity(kind: kind, range: placed))
            if kind == .url, let display { displays[placed] = display }
        }
        let unescaped = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return Content(unescapedText: unescaped, consistentEntities: consistent, displays: displays)
    }

    private static func wireEntities(_ entities: JSONValue) -> [(Mention.Kind, Range<Int>, String, String?)] {
        let groups: [(String, Mention.Kind, (JSONValue) -> String?)] = [
            ("hashtags", .hashtag, { ($0["text"] ?? $0["tag"])?.string.map { "#" + $0 } }),
            ("user_mentions", .user, { $0["screen_name"]?.string.map { "@" + $0 } }),
            ("mentions", .user, { $0["username"]?.string.map { "@" + $0 } }),
            (
                "urls", .url,
                { entity in
                    let display = entity["display_url"]?.string ?? ""
                    let isMedia =
                        entity["media_key"] != nil || display.hasPrefix("pic.twitter.com/")
                        || display.hasPrefix("pic.x.com/")
                    return isMedia ? nil : entity["url"]?.string
                }
            ),
        ]
        return groups.flatMap { key, kind, token in
            (entities[key]?.array ?? []).compactMap { entity -> (Mention.Kind, Range<Int>, String, String?)? in
                let start = entity["indices"]?.array?.first?.int ?? entity["start"]?.int
                let end = entity["indices"]?.array?.last?.int ?? entity["end"]?.int
                guard let start, let end, start < end, let token = token(entity) else { return nil }
                return (kind, start..<end, token, entity["display_url"]?.string)
            }
        }.sorted { $0.1.lowerBound < $1.1.lowerBound }
    }

    private static func fold(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "＃", with: "#").replacingOccurrences(of: "＠", with: "@")
    }

    private static func unescapedOffset(_ offset: Int, in scalars: [Unicode.Scalar]) -> Int {
        let before = String(String.UnicodeScalarView(scalars[..<offset]))
        func occurrences(_ escape: String) -> Int { before.components(separatedBy: escape).count - 1 }
        return offset - 4 * occurrences("&amp;") - 3 * occurrences("&lt;") - 3 * occurrences("&gt;")
    }
}
