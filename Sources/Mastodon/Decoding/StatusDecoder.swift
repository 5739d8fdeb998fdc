import Posts
import WireJSON

/// Mastodon's Status entity as a `Post`: a boost keeps its own id and time (what timelines page by) and shows the
/// boosted status's content, `repostedBy` the booster; a quote (Mastodon 4.4's `quote.quoted_status`) is decoded
/// into the post.
package enum StatusDecoder {
    /// A status, or why it is not one: one sentence.
    package static func post(from status: JSONValue) throws(MastodonDecodingError) -> Post {
        try post(from: status, quoteDepth: 0)
    }

    private static func post(from status: JSONValue, quoteDepth: Int) throws(MastodonDecodingError) -> Post {
        guard let id = status["id"]?.nonEmptyString else { throw .missing("id") }
        guard let created = status["created_at"]?.string.flatMap(WireDate.parseISO8601) else {
            throw .invalid("created_at", id: id)
        }
        let boosted = status["reblog"].flatMap { $0.object == nil ? nil : $0 }
        let shown = boosted ?? status
        let poster = try author(shown["account"], of: id)
        let quoted = quotedStatus(of: shown)
        let content = StatusContent(
            html: shown["content"]?.string ?? "", accounts: MentionedAccounts(shown["mentions"]?.array ?? [])
        )
        return Post(
            network: .mastodon, id: id, created: created, author: poster, text: content.text,
            mentions: content.mentions, media: (shown["media_attachments"]?.array ?? []).compactMap(MediaDecoder.item),
            repostedBy: boosted == nil ? nil : try author(status["account"], of: id),
            quotedID: quoted?["id"]?.nonEmptyString,
            quoted: quoteDepth == 0 ? quoted.flatMap { try? post(from: $0, quoteDepth: 1) } : nil,
            inReplyToID: shown["in_reply_to_id"]?.nonEmptyString, inReplyToUser: repliedTo(shown, poster: poster),
            contentWarning: shown["spoiler_text"]?.nonEmptyString,
            isSensitive: shown["sensitive"]?.isTrue ?? false,
            card: card(shown["card"]),
            url: shown["url"]?.nonEmptyString ?? shown["uri"]?.nonEmptyString,
            language: shown["language"]?.nonEmptyString,
            notIndexable: notIndexable(shown["account"]) || (boosted != nil && notIndexable(status["account"]))
        )
    }

    /// The ActivityPub `uri` of the status, the status it boosts and the one it quotes, by the id this server gives
    /// each: one post's id on every server, where each server has its own local id for it.
    package static func uris(of status: JSONValue, into uris: inout [String: String]) {
        let shown = status["reblog"].flatMap { $0.object == nil ? nil : $0 }
        for part in [status, shown, quotedStatus(of: shown ?? status)] {
            guard let id = part?["id"]?.nonEmptyString, let uri = part?["uri"]?.nonEmptyString else { continue }
            uris[id] = uri
        }
    }

    /// Whom a status answers: its author (a thread of their own), or an account it mentions; nil when the server
    /// names an account it does not list (`in_reply_to_account_id` is an id, not an address).
    private static func repliedTo(_ status: JSONValue, poster: Author) -> String? {
        guard let id = status["in_reply_to_account_id"]?.nonEmptyString else { return nil }
        if id == status["account"]?["id"]?.nonEmptyString { return poster.handle }
        guard let mention = status["mentions"]?.array?.first(where: { $0["id"]?.nonEmptyString == id }),
            let acct = mention["acct"]?.nonEmptyString, let url = mention["url"]?.nonEmptyString
        else { return nil }
        return MentionedAccounts.fullAddress(acct: acct, profileURL: url)
    }

    /// Only an explicit `indexable: false` (Mastodon 4.2 and later, where opting in is each person's choice): a
    /// server that does not say has no such setting to honour.
    private static func notIndexable(_ account: JSONValue?) -> Bool {
        if case .bool(false)? = account?["indexable"] { true } else { false }
    }

    /// The status's preview card, for an `http(s)` link.
    private static func card(_ json: JSONValue?) -> LinkCard? {
        LinkCard(
            checking: json?["url"]?.string, title: json?["title"]?.string, description: json?["description"]?.string,
            imageURL: json?["image"]?.string)
    }

    /// The quoted status, when the server included it: Mastodon 4.4 wraps it (`quote.quoted_status`, none for a quote
    /// the author has not approved); Akkoma and Pleroma give the status itself as `quote`.
    private static func quotedStatus(of status: JSONValue) -> JSONValue? {
        guard let quote = status["quote"], quote.object != nil else { return nil }
        if quote["content"] != nil, quote["account"] != nil { return quote }
        return quote["quoted_status"].flatMap { $0.object == nil ? nil : $0 }
    }

    /// An account as an author: its full address (`alice@example.social`), display name and avatar.
    static func author(_ account: JSONValue?, of id: String) throws(MastodonDecodingError) -> Author {
        guard let account, let acct = account["acct"]?.nonEmptyString else { throw .invalid("account", id: id) }
        let profile = account["url"]?.nonEmptyString ?? ""
        let address = MentionedAccounts.fullAddress(acct: acct, profileURL: profile)
        let name = account["display_name"]?.nonEmptyString ?? account["username"]?.nonEmptyString ?? acct
        let avatar = account["avatar_static"]?.nonEmptyString ?? account["avatar"]?.nonEmptyString
        return Author(handle: address, name: name, profileImageURL: WebLink.http(avatar))
    }
}

/// Why a status could not be read.
package enum MastodonDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(String)
    case invalid(String, id: String)

    package var description: String {
        switch self {
        case .missing(let field): "a status has no \(field)"
        case .invalid(let field, let id): "status \(id) has no valid \(field)"
        }
    }
}
