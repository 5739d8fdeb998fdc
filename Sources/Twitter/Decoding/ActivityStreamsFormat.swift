import Posts
import WireJSON

/// Gnip's Activity Streams: `actor`, `body`, v1.1 entities under `twitter_entities`, and for a retweet (`verb`
/// "share") the original activity under `object`.
enum ActivityStreamsFormat {
    static func tweet(_ activity: JSONValue) throws -> Post {
        guard let raw = activity["id"]?.string?.split(separator: ":").last.map(String.init), !raw.isEmpty else {
            throw FormatError("an activity without an id")
        }
        let id = try WireTweet.checked(id: raw)
        let actor = user(activity["actor"])
        var wire = WireTweet(
            id: id, created: try WireTweet.created(activity["postedTime"], id: id),
            content: try content(activity, user: actor))
        var shown = activity
        if activity["verb"]?.string == "share", let original = activity["object"], original["body"] != nil {
            wire = WireTweet(
                id: id, created: wire.created, content: try content(original, user: user(original["actor"])),
                repostedBy: actor)
            shown = original
        }
        wire.language = language(of: shown) ?? language(of: activity)
        return wire.tweet
    }

    /// A long tweet's whole text and entities are in `long_object`.
    private static func content(_ activity: JSONValue, user: Author) throws -> TweetContent {
        let source = activity["long_object"]?["body"] != nil ? activity["long_object"] : activity
        guard let text = source?["body"]?.string else {
            throw FormatError("activity \(activity["id"]?.string ?? "") has no body")
        }
        var content = V1Format.content(
            text: text, entities: source?["twitter_entities"],
            extendedEntities: source?["twitter_extended_entities"] ?? activity["twitter_extended_entities"], user: user
        )
        content.text.isReply = activity["inReplyTo"] != nil
        content.text.displayStart = source?["display_text_range"]?.array?.first?.int
        return content
    }

    /// X's guess (`twitter_lang`), else Gnip's own (`gnip.language.value`).
    private static func language(of activity: JSONValue) -> String? {
        activity["twitter_lang"]?.nonEmptyString ?? activity["gnip"]?["language"]?["value"]?.nonEmptyString
    }

    private static func user(_ actor: JSONValue?) -> Author {
        guard let actor, let handle = actor["preferredUsername"]?.nonEmptyString else { return .unknown }
        return Author(
            handle: handle, name: actor["displayName"]?.string ?? handle,
            profileImageURL: actor["image"]?.nonEmptyString)
    }
}
