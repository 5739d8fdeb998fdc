import Foundation
import Posts

/// Posts for tests, written as text: the `#tags`, `@users` and `https://…` links in it become its mentions.
public enum TestPosts {
    /// Post `id` by `author`, at `created` (by default a second per id after a fixed time).
    /// `replyingTo`: the post it answers.
    public static func post(
        _ id: Int, by author: String = "alice", _ text: String, media: Int = 0, repostedBy: String? = nil,
        created: Date? = nil, replyingTo: Int? = nil
    ) -> Post {
        Post(
            id: String(id),
            created: created ?? Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
            author: self.author(author),
            text: text,
            mentions: mentions(in: text),
            media: (0..<media).map { MediaItem(url: "/demo/images/\(id)-\($0)-400x300.svg", aspectRatio: 4.0 / 3) },
            repostedBy: repostedBy.map(self.author),
            inReplyToID: replyingTo.map(String.init)
        )
    }

    /// An author whose name is the handle capitalised, with a demo avatar.
    public static func author(_ handle: String) -> Author {
        Author(handle: handle, name: handle.capitalized, profileImageURL: "/demo/avatars/\(handle).svg")
    }

    /// Words starting `#`, `@` or `https://`, at their Unicode scalar offsets (a link goes to example.com).
    public static func mentions(in text: String) -> [Mention] {
        var mentions: [Mention] = []
        var offset = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let length = word.unicodeScalars.count
            if let kind = kind(of: word), length > 1 {
                let expanded = kind == .url ? "https://example.com/\(word.split(separator: "/").last ?? "")" : nil
                mentions.append(
                    Mention(
                        kind: kind, keyword: String(word), range: offset..<offset + length,
                        expandedURL: expanded))
            }
            offset += length + 1
        }
        return mentions
    }

    private static func kind(of word: Substring) -> Mention.Kind? {
        if word.hasPrefix("#") { return .hashtag }
        if word.hasPrefix("@") { return .user }
        return word.hasPrefix("https://") ? .url : nil
    }
}
