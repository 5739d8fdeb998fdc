import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Post {
    /// A post from its JSON as `Post`'s `Codable` keys write it: the stored form (`storedJSON`, `JSONEncoder`), the
    /// public form (`PublicJSON`) and Smashtag's NDJSON export, whose extra members (`counted`) are ignored.
    /// `created` is either seconds since 2001-01-01 (`JSONEncoder`'s default) or an ISO-8601 string (`Z` or an
    /// offset, any number of fractional digits). Checked as the `Codable` init checks: the same keys required, the
    /// same types, a mention's start not after its end.
    ///
    /// Read from a parsed `JSONValue` rather than with `JSONDecoder`, which takes twice as long over the same bytes
    /// (the reading here is a fifth of the parse): the export reads every stored post of a term through here.
    package init(json: JSONValue) throws(PostJSONError) {
        self = try PostJSONReader(json, subject: nil).post()
    }

    /// A post from its JSON text, as a store keeps it: the document parsed, then read as above.
    package init(jsonText: String) throws {
        try self.init(json: JSONValue.document(Array(jsonText.utf8)))
    }
}

/// Why a post's JSON could not be read: one sentence naming the member at fault.
package struct PostJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String

    package var description: String { message }
}

/// The members of one JSON object of a post, read with the `Codable` forms' rules; `subject` names the object in
/// errors ("post 42's “user”").
private struct PostJSONReader {
    let object: JSONObject
    let subject: String

    /// `subject` nil: a post, named by its id when it has a readable one.
    init(_ value: JSONValue?, subject: String?) throws(PostJSONError) {
        guard case .object(let object)? = value else {
            let found = value.map { "found \($0.kindName)" } ?? "found nothing"
            throw PostJSONError(message: "\(subject ?? "a post") is not a JSON object (\(found))")
        }
        self.object = object
        if let subject {
            self.subject = subject
        } else if case .string(let id)? = object["id"] {
            self.subject = "post \(id.excerpt(40))"
        } else {
            self.subject = "a post"
        }
    }

    func post() throws(PostJSONError) -> Post {
        try Post(
            network: network(),
            id: string("id"),
            created: created(),
            author: author("user"),
            text: string("text"),
            mentions: items("mentions") { (reader) throws(PostJSONError) in try reader.mention() } ?? [],
            media: items("media") { (reader) throws(PostJSONError) in try reader.medium() } ?? [],
            repostedBy: object["retweetedBy"].isAbsent ? nil : author("retweetedBy"),
            quotedID: optionalString("quotedID"),
            quoted: object["quoted"].isAbsent
                ? nil : PostJSONReader(object["quoted"], subject: "\(subject)'s “quoted” post").post(),
            inReplyToID: optionalString("inReplyToID"), inReplyToUser: optionalString("inReplyToUser"),
            displayStart: optionalInt("displayStart") ?? 0,
            contentWarning: optionalString("contentWarning"),
            isSensitive: optionalBool("sensitive") ?? false,
            card: object["card"].isAbsent ? nil : member("card").card(),
            url: optionalString("url"),
            language: optionalString("language"),
            notIndexable: optionalBool("notIndexable") ?? false,
            signedInOnly: optionalBool("signedInOnly") ?? false,
            seenOn: strings("seenOn") ?? []
        )
    }

    /// Absent means X, as earlier releases stored tweets.
    private func network() throws(PostJSONError) -> Network {
        guard let name = try optionalString("network") else { return .twitter }
        guard let network = Network(rawValue: name) else {
            throw invalid("network", "twitter, mastodon or bluesky, found “\(name.excerpt(40))”")
        }
        return network
    }

    private func created() throws(PostJSONError) -> Date {
        switch object["created"] {
        case .number(let literal)?:
            if let seconds = Double(literal), seconds.isFinite { return Date(timeIntervalSinceReferenceDate: seconds) }
        case .string(let text)?:
            if let date = WireDate.parseISO8601(text) { return date }
        case nil, .null?:
            throw missing("created")
        default:
            break
        }
        throw invalid("created", "seconds since 2001 or an ISO-8601 time")
    }

    private func author(_ key: String) throws(PostJSONError) -> Author {
        let reader = try member(key)
        return Author(
            handle: try reader.string("screenName"), name: try reader.string("name"),
            profileImageURL: try reader.optionalString("profileImageURL"))
    }

    private func mention() throws(PostJSONError) -> Mention {
        let kindName = try string("kind")
        guard let kind = Mention.Kind(rawValue: kindName) else {
            throw invalid("kind", "hashtag, user or url, found “\(kindName.excerpt(40))”")
        }
        let (start, end) = (try int("start"), try int("end"))
        guard start <= end else { throw PostJSONError(message: "\(subject) ends (\(end)) before it starts (\(start))") }
        return Mention(
            kind: kind, keyword: try string("keyword"), range: start..<end,
            expandedURL: try optionalString("expandedURL"),
            display: try optionalString("display"))
    }

    private func medium() throws(PostJSONError) -> MediaItem {
        MediaItem(
            url: try string("url"), aspectRatio: try double("aspectRatio"),
            kind: MediaItem.Kind(storedName: try string("kind")), playURL: try optionalString("playURL"),
            alt: try optionalString("alt"), duration: try optionalDouble("duration"))
    }

    private func card() throws(PostJSONError) -> LinkCard {
        LinkCard(
            url: try string("url"), title: try string("title"), description: try string("description"),
            imageURL: try optionalString("imageURL"))
    }

    // MARK: Members by type

    private func member(_ key: String) throws(PostJSONError) -> PostJSONReader {
        try PostJSONReader(required(key), subject: "\(subject)'s “\(key)”")
    }

    /// The elements of an array member, each read by `read`; nil when the member is absent or null.
    private func items<Item>(
        _ key: String, _ read: (PostJSONReader) throws(PostJSONError) -> Item
    ) throws(PostJSONError) -> [Item]? {
        let elements: [JSONValue]
        switch object[key] {
        case nil, .null?: return nil
        case .array(let array)?: elements = array
        case let value?: throw invalid(key, "an array, found \(value.kindName)")
        }
        var items: [Item] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            items.append(try read(PostJSONReader(element, subject: "\(subject)'s “\(key)” item \(index + 1)")))
        }
        return items
    }

    private func required(_ key: String) throws(PostJSONError) -> JSONValue {
        switch object[key] {
        case nil, .null?: throw missing(key)
        case let value?: return value
        }
    }

    private func string(_ key: String) throws(PostJSONError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw invalid(key, "a string, found \(value.kindName)") }
        return text
    }

    private func optionalString(_ key: String) throws(PostJSONError) -> String? {
        object[key].isAbsent ? nil : try string(key)
    }

    /// An integer as `JSONDecoder` reads one: digits, or a number whose fraction is zero.
    private func int(_ key: String) throws(PostJSONError) -> Int {
        let value = try required(key)
        if case .number(let literal) = value {
            if let integer = Int(literal) { return integer }
            if let number = Double(literal), number.rounded() == number, let integer = Int(exactly: number) {
                return integer
            }
        }
        throw invalid(key, "an integer, found \(value.kindName)")
    }

    private func optionalInt(_ key: String) throws(PostJSONError) -> Int? {
        object[key].isAbsent ? nil : try int(key)
    }

    private func double(_ key: String) throws(PostJSONError) -> Double {
        let value = try required(key)
        guard case .number(let literal) = value, let number = Double(literal) else {
            throw invalid(key, "a number, found \(value.kindName)")
        }
        return number
    }

    private func optionalDouble(_ key: String) throws(PostJSONError) -> Double? {
        object[key].isAbsent ? nil : try double(key)
    }

    /// An array of strings (the servers a post was seen on); nil when absent.
    private func strings(_ key: String) throws(PostJSONError) -> [String]? {
        switch object[key] {
        case nil, .null?: return nil
        case .array(let array)?:
            var strings: [String] = []
            for element in array {
                guard case .string(let text) = element else { throw invalid(key, "strings, found \(element.kindName)") }
                strings.append(text)
            }
            return strings
        case let value?: throw invalid(key, "an array, found \(value.kindName)")
        }
    }

    private func optionalBool(_ key: String) throws(PostJSONError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let value?: throw invalid(key, "true or false, found \(value.kindName)")
        }
    }

    private func missing(_ key: String) -> PostJSONError {
        PostJSONError(message: "\(subject) has no “\(key)”")
    }

    private func invalid(_ key: String, _ expected: String) -> PostJSONError {
        PostJSONError(message: "\(subject) has an invalid “\(key)”: expected \(expected)")
    }
}

extension JSONValue? {
    /// Absent or null: what `decodeIfPresent` reads as nil.
    fileprivate var isAbsent: Bool {
        switch self {
        case nil, .null?: true
        default: false
        }
    }
}
