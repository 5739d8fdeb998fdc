/// How the stores (the corpus and the app database) write a mention's kind: one explicit mapping, never derived from
/// the order of the cases, so adding a kind cannot renumber stored mentions.
extension Mention.Kind {
    package var code: Int {
        switch self {
        case .hashtag: 0
        case .user: 1
        case .url: 2
        }
    }

    /// The kind a stored code stands for; nil for a code this release does not know.
    package init?(code: Int) {
        guard let kind = Mention.Kind.allCases.first(where: { $0.code == code }) else { return nil }
        self = kind
    }
}
