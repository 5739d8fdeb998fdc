import Posts

/// What a live index keeps (`--tags`, `--langs`, `--keep-days`): with tags or languages named, only the posts with
/// one of those hashtags and in one of those languages; with days named, only the posts of those last days.
public struct LiveIndexOptions: Sendable, Equatable {
    /// Lower-cased, without `#`.
    public let tags: Set<String>
    /// Lower-cased language tags (BCP 47): `en` keeps `en` and `en-US`, `pt-br` keeps `pt-BR` only.
    public let languages: Set<String>
    public let keepDays: Int?

    public init(tags: [String] = [], languages: [String] = [], keepDays: Int? = nil) {
        self.tags = Set(tags.map { $0.trimmingPrefix("#").lowercased() }.filter { !$0.isEmpty })
        self.languages = Set(languages.map { $0.lowercased() }.filter { !$0.isEmpty })
        self.keepDays = keepDays
    }

    /// Whether a new post is stored. Deletes and identity changes always are applied.
    func keeps(_ post: Post, languages postLanguages: [String]) -> Bool {
        hasWantedTag(post) && isInWantedLanguage(postLanguages)
    }

    private func hasWantedTag(_ post: Post) -> Bool {
        tags.isEmpty
            || post.mentions.contains { $0.kind == .hashtag && tags.contains($0.keyword.dropFirst().lowercased()) }
    }

    private func isInWantedLanguage(_ postLanguages: [String]) -> Bool {
        guard !languages.isEmpty else { return true }
        return postLanguages.contains { language in
            let tag = language.lowercased()
            return languages.contains { tag == $0 || tag.hasPrefix($0 + "-") }
        }
    }
}
