import AppStore
import Foundation
import Posts
import WireJSON

/// A column of a dataset's table, as Frictionless Table Schema describes it (and writes it: `fields`).
struct DatasetField: Sendable, Encodable {
    let name: String
    let type: String
    let description: String

    init(_ name: String, _ type: String, _ description: String) {
        (self.name, self.type, self.description) = (name, type, description)
    }
}

/// A dataset's `datapackage.json`: a Frictionless Data Package (v2) naming every file with its fields, types and
/// keys, and how the data was collected (`collection`), so the dataset explains itself wherever it goes —
/// `frictionless validate` reads it and checks every row against it.
public enum DataPackage {
    static let fileName = "datapackage.json"

    /// The NDJSON's sidecar beside `path`: `posts.ndjson` → `posts.datapackage.json`.
    public static func sidecar(of path: String) -> String {
        let stem = [".ndjson", ".jsonl", ".json"].first { path.lowercased().hasSuffix($0) }.map {
            String(path.dropLast($0.count))
        }
        return (stem ?? path) + "." + fileName
    }

    /// The descriptor of CSV tables (`termTables`: a term's popularity and network files too).
    static func tables(_ provenance: Provenance, _ summary: DatasetSummary, termTables: Bool) -> [UInt8] {
        var resources = PostTable.allCases.map { table in
            Resource.csv(table.rawValue, fields: table.fields, keys: table == .posts ? .primary : .ofPost)
        }
        if termTables {
            resources.append(.csv("popularity", fields: TermTableFields.popularity, keys: .none))
            resources.append(.csv("network", fields: TermTableFields.network, keys: .none))
            resources.append(.csv("servers", fields: TermTableFields.servers, keys: .none))
        }
        return descriptor(provenance, summary, resources)
    }

    /// The descriptor of an NDJSON file named `file`.
    static func lines(_ provenance: Provenance, _ summary: DatasetSummary, file: String) -> [UInt8] {
        descriptor(provenance, summary, [.ndjson(file)])
    }

    private static func descriptor(
        _ provenance: Provenance, _ summary: DatasetSummary, _ resources: [Resource]
    ) -> [UInt8] {
        let package = Package(
            schema: "https://datapackage.org/profiles/2.0/datapackage.json",
            name: DatasetName.slug(of: provenance), title: title(provenance),
            created: WireDate.iso8601WholeSeconds(provenance.made), resources: resources,
            collection: Collection(provenance, summary))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(package)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    private static func title(_ provenance: Provenance) -> String {
        let window = provenance.window == .all ? "" : ", \(provenance.window.span)"
        switch provenance.subject {
        case .term(let term): return "The posts Smashtag counted for “\(term)”\(window)"
        case .query(let query): return "The corpus posts matching “\(query)”\(window)"
        }
    }
}

extension DataPackage {
    private struct Package: Encodable {
        let schema: String
        let name: String
        let title: String
        let created: String
        let resources: [Resource]
        let collection: Collection

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case name, title, created, resources, collection
        }
    }

    /// How the posts were collected, under a name of its own (Data Package allows properties it does not define).
    private struct Collection: Encodable {
        let term: String?
        let query: String?
        let window: String
        let windowStart: String?
        let windowEnd: String
        let posts: Int
        let postsByNetwork: [String: Int]
        let postsByHost: [String: Int]
        let oldestPost: String?
        let newestPost: String?
        let firstCounted: String?
        let lastCounted: String?
        let corpus: String
        let pseudonymised: Bool
        let pseudonymisation: String
        let consentRules: String
        let postsWithheld: Int
        let postsSignedInOnly: Int
        let postsNotOptedIn: Int
        let consent: [ConsentEntry]
        let retention: String
        let postsExpired: Int
        let deletions: String
        let postsRechecked: Int
        let oldestRecheck: String?
        let smashtagVersion: String

        init(_ provenance: Provenance, _ summary: DatasetSummary) {
            switch provenance.subject {
            case .term(let term): (self.term, query) = (term, nil)
            case .query(let query): (term, self.query) = (nil, query)
            }
            window = provenance.window.rawValue
            windowStart = provenance.window.hours.map {
                WireDate.iso8601WholeSeconds(provenance.made.addingTimeInterval(-Double($0) * 3600))
            }
            windowEnd = WireDate.iso8601WholeSeconds(provenance.made)
            (posts, postsByNetwork, postsByHost) = (summary.posts, summary.byNetwork, summary.byHost)
            (oldestPost, newestPost) = (summary.created.map(\.lowerBound.wire), summary.created.map(\.upperBound.wire))
            (firstCounted, lastCounted) = (
                summary.counted.map(\.lowerBound.wire), summary.counted.map(\.upperBound.wire)
            )
            corpus =
                provenance.demoSeed.map {
                    "Smashtag's demo corpus (seed \($0)): generated posts and people, not real ones."
                } ?? "Posts fetched from the networks or imported from files."
            pseudonymised = provenance.pseudonymised
            pseudonymisation =
                provenance.pseudonymised
                ? """
                Every author, reposter and mentioned user is p_ and 16 hex digits of HMAC-SHA256 of the lower-cased \
                handle, keyed by a secret kept where the dataset was made; names and pictures are dropped and links \
                that name a person removed. The text itself may still identify someone.
                """
                : "None: people are named as their networks name them."
            consentRules = Self.consentRules(provenance.consent, summary)
            (postsWithheld, postsSignedInOnly, postsNotOptedIn) = (
                summary.withheld, summary.signedInOnly, summary.notOptedIn
            )
            consent = ConsentRule.allCases.map { ConsentEntry($0, provenance.consent) }
            postsExpired = summary.expired
            retention =
                summary.expired == 0
                ? "Every post counted under the term in the window is here: none had passed a keeping time."
                : """
                \(summary.expired) posts counted under the term had passed the keeping time (serve --keep-days, \
                track --keep, smashtag corpus prune): only their counts are left, in the popularity and network \
                tables, and they are not among the posts (postsExpired).
                """
            deletions = provenance.deletions
            postsRechecked = provenance.rechecks?.checked ?? 0
            oldestRecheck = provenance.rechecks?.oldestCheck.map { Date(millisecondsSince1970: $0).wire }
            smashtagVersion = Provenance.smashtagVersion
        }

        /// What the consent rules did to this dataset, in sentences.
        private static func consentRules(_ rules: ConsentRules, _ summary: DatasetSummary) -> String {
            let mastodon =
                if let since = rules.off[.mastodonIndexable] {
                    """
                    The rule that keeps out posts of Mastodon accounts that have not opted in to search (indexable: \
                    false) was turned off at \(since.wire) (smashtag consent off mastodon-indexable): \
                    \(summary.notOptedIn) such posts, kept whole since, are here (postsNotOptedIn); \
                    \(summary.withheld) kept before then are counted but not here (postsWithheld).
                    """
                } else {
                    """
                    Posts of Mastodon accounts that have not opted in to search (indexable: false) are counted in the \
                    popularity and network tables but never exported: \(summary.withheld) left out (postsWithheld).
                    """
                }
            let bluesky =
                if let since = rules.off[.blueskySignedInOnly] {
                    """
                    The rule that hides posts of Bluesky accounts asking for sign-in (!no-unauthenticated) from \
                    visitors was turned off at \(since.wire); \(summary.signedInOnly) such posts are here, marked \
                    signedInOnly (postsSignedInOnly).
                    """
                } else {
                    """
                    Posts of Bluesky accounts that show their posts only to people signed in (!no-unauthenticated) \
                    are never shown to visitors; a dataset is made by someone signed in, so they are here, marked \
                    signedInOnly: \(summary.signedInOnly) (postsSignedInOnly).
                    """
                }
            return mastodon + " " + bluesky
        }
    }

    /// One consent rule as the dataset records it: on, or off since when.
    fileprivate struct ConsentEntry: Encodable {
        let rule: String
        let on: Bool
        let offSince: String?
        let description: String

        init(_ rule: ConsentRule, _ rules: ConsentRules) {
            (self.rule, on, description) = (rule.rawValue, rules.isOn(rule), rule.sentence)
            offSince = rules.off[rule]?.wire
        }
    }

    /// One file of the package.
    fileprivate struct Resource: Encodable {
        let name: String
        let path: String
        let type = "table"
        let format: String
        let mediatype: String
        let encoding = "utf-8"
        let dialect: Dialect?
        let schema: Schema

        enum Keys {
            case primary
            case ofPost
            case none
        }

        static func csv(_ name: String, fields: [DatasetField], keys: Keys) -> Resource {
            let post = ["network", "post_id"]
            return Resource(
                name: name, path: name + ".csv", format: "csv", mediatype: "text/csv", dialect: nil,
                schema: Schema(
                    fields: fields, primaryKey: keys == .primary ? post : nil,
                    foreignKeys: keys == .ofPost
                        ? [ForeignKey(fields: post, reference: Reference(resource: "posts", fields: post))] : nil))
        }

        /// Each line an object: its keys are named (`itemKeys` in Data Package v2; frictionless-py 5 reads
        /// `json.keys`), so a line without an optional key is a row with that cell empty.
        static func ndjson(_ file: String) -> Resource {
            let keys = PostLineFields.all.map(\.name)
            return Resource(
                name: "posts", path: file, format: "ndjson", mediatype: "application/x-ndjson",
                dialect: Dialect(itemKeys: keys, json: ["keys": keys]),
                schema: Schema(
                    fields: PostLineFields.all, primaryKey: ["network", "id"], foreignKeys: nil))
        }
    }

    fileprivate struct Dialect: Encodable {
        let itemType = "object"
        let itemKeys: [String]
        let json: [String: [String]]
    }

    fileprivate struct Schema: Encodable {
        let fields: [DatasetField]
        let primaryKey: [String]?
        let foreignKeys: [ForeignKey]?
    }

    fileprivate struct ForeignKey: Encodable {
        let fields: [String]
        let reference: Reference
    }

    fileprivate struct Reference: Encodable {
        let resource: String
        let fields: [String]
    }
}

extension Date {
    fileprivate var wire: String { WireDate.iso8601(self) }
}

extension DatasetName {
    /// The package's name: lower case letters, digits, `-`, `_` and `.` only, as Data Package asks.
    static func slug(of provenance: Provenance) -> String {
        let subject: String
        switch provenance.subject {
        case .term(let term): subject = term
        case .query(let query): subject = "query-" + query
        }
        return of(subject, window: provenance.window).lowercased()
    }
}

/// The fields of a term's own tables, as `PopularityFile` and `NetworkFile` write them.
enum TermTableFields {
    static let popularity = [
        DatasetField("mention", "string", "A hashtag or user mentioned more than once in the term's posts."),
        DatasetField("kind", "string", "hashtag or user."),
        DatasetField("count", "integer", "How many of the window's posts mention it."),
        DatasetField("previous", "integer", "Its count in the window of the same length before (empty for all time)."),
        DatasetField("change", "string", "new, rising, falling or steady against the window before."),
        DatasetField("partners", "string", "The three mentions it is named with most, separated by spaces."),
    ]

    static let network = [
        DatasetField("source", "string", "A mention."),
        DatasetField("target", "string", "Another mention named in the same posts."),
        DatasetField("weight", "integer", "How many posts name both."),
    ]

    static let servers = [
        DatasetField("server", "string", "A Mastodon-API server, of several asked as one."),
        DatasetField("written", "integer", "How many of the posts were written on it (their ActivityPub id's host)."),
        DatasetField(
            "gave", "integer", "How many of the posts it gave when asked (a post several gave counts for each)."),
    ]
}

/// The keys of a post's NDJSON line (`JSONWriter.writePublic`), as the NDJSON's schema names them.
enum PostLineFields {
    static let all = [
        DatasetField("network", "string", "twitter, mastodon or bluesky."),
        DatasetField("id", "string", "The network's own id of the post (an at:// URI on Bluesky)."),
        DatasetField("url", "string", "The post's permalink."),
        DatasetField("created", "datetime", "When the post was made, to the microsecond the network gave (UTC)."),
        DatasetField("counted", "datetime", "When Smashtag first counted the post under the term."),
        DatasetField("user", "object", "The author: screenName, name, profileImageURL."),
        DatasetField("text", "string", "The text; mentions' start and end count its Unicode code points."),
        DatasetField("mentions", "array", "Hashtags, users and links: kind, keyword, start, end, expandedURL."),
        DatasetField("media", "array", "Pictures, videos and sounds: kind, url, playURL, alt, aspectRatio."),
        DatasetField("language", "string", "The language the network says the post is in."),
        DatasetField("inReplyToID", "string", "The id of the post it replies to."),
        DatasetField("inReplyToUser", "string", "The handle of the author it replies to, where the network says."),
        DatasetField("quotedID", "string", "The id of the post it quotes."),
        DatasetField("quoted", "object", "The quoted post, whole, when the network gave it."),
        DatasetField("retweetedBy", "object", "Who reposted it, when the row is a repost."),
        DatasetField("contentWarning", "string", "The author's content warning."),
        DatasetField("sensitive", "boolean", "Whether the author marked its media sensitive."),
        DatasetField("card", "object", "A link's preview: url, title, description, imageURL."),
        DatasetField("displayStart", "integer", "Where the text people see begins, after a reply's leading @names."),
        DatasetField("signedInOnly", "boolean", SignInOnly.fieldDescription),
        DatasetField("seenOn", "array", "The servers that gave it, when several Mastodon servers were asked as one."),
    ]
}
