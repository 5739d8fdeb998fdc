#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Posts
import Twitter

/// Tweets for tests, written as text: `#tags`, `@users` and `https://…` links in it become its mentions.
enum TestTweets {
    static func tweet(
        _ id: Int, by author: String = "alice", _ text: String, media: Int = 0, repostedBy: String? = nil
    ) -> Post {
        Post(
            id: String(id),
            created: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
            user: user(author),
            text: text,
            mentions: mentions(in: text),
            media: (0..<media).map { MediaItem(url: "/demo/images/\(id)-\($0)-400x300.svg", aspectRatio: 4.0 / 3) },
            repostedBy: repostedBy.map(user)
        )
    }

    static func user(_ name: String) -> Author {
        Author(screenName: name, name: name.capitalized, profileImageURL: "/demo/avatars/\(name).svg")
    }

    /// Words starting `#`, `@` or `https://`, at their Unicode scalar offsets.
    static func mentions(in text: String) -> [Mention] {
        var mentions: [Mention] = []
        var offset = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let length = word.unicodeScalars.count
            let kind: Mention.Kind? = word.hasPrefix("#") ? .hashtag : word.hasPrefix("@") ? .user : word.hasPrefix("https://") ? .url : nil
            if let kind, length > 1 {
                let expanded = kind == .url ? "https://example.com/\(word.split(separator: "/").last ?? "")" : nil
                mentions.append(Mention(kind: kind, keyword: String(word), range: offset..<offset + length, expandedURL: expanded))
            }
            offset += length + 1
        }
        return mentions
    }
}
