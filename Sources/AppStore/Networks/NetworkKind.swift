/// Which network of a term: its hashtags and users named together in a post (undirected), or who answers, quotes or
/// reposts whom among the posts counted for it (directed: from the one who acts to the one acted on).
public enum NetworkKind: String, Sendable, Hashable, CaseIterable, Codable {
    case mentions
    case replies
    case quotes
    case reposts

    /// The interaction a conversation network counts; nil for co-mentions.
    var interaction: InteractionKind? {
        switch self {
        case .mentions: nil
        case .replies: .reply
        case .quotes: .quote
        case .reposts: .repost
        }
    }

    public var isDirected: Bool { self != .mentions }

    /// As the Network page's choice reads.
    public var label: String {
        switch self {
        case .mentions: "Named together"
        case .replies: "Who replies to whom"
        case .quotes: "Who quotes whom"
        case .reposts: "Who reposts whom"
        }
    }

    /// One edge's kind as exports write it: "reply", "quote", "repost" ("co-mention" for the undirected network).
    public var edgeName: String {
        switch self {
        case .mentions: "co-mention"
        case .replies: "reply"
        case .quotes: "quote"
        case .reposts: "repost"
        }
    }
}

/// One person acting on another's post, as the stores keep it: by a code that is never renumbered.
enum InteractionKind: Int, Sendable, Hashable, CaseIterable {
    case reply = 1
    case quote = 2
    case repost = 3
}
