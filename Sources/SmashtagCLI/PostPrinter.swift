import AppStore
import Posts
import Twitter

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Prints posts as JSON Lines (one `PublicJSON` post a line) or as text with mentions coloured by kind.
struct PostPrinter {
    let format: OutputFormat
    let style: TerminalStyle

    func print(_ post: Post) {
        switch format {
        case .json: Swift.print(PublicJSON.text(post))
        case .text: Swift.print(text(post), terminator: "\n\n")
        }
    }

    private func text(_ post: Post) -> String {
        var lines = [header(post)]
        if let reposter = post.repostedBy {
            lines.append(style.dim("↻ \(post.network.repostVerb) by @\(reposter.handle)"))
        }
        if let replying = post.replyingTo { lines.append(style.dim(replying.sentence)) }
        lines.append(post.shownSegments.map(colour).joined())
        if let card = post.card {
            lines.append(style.dim("▭ \(card.title.isEmpty ? card.host : card.title) — \(card.host)"))
        }
        if !post.media.isEmpty {
            lines.append(style.dim(post.media.count == 1 ? "▣ 1 image" : "▣ \(post.media.count) images"))
        }
        return lines.joined(separator: "\n")
    }

    private func header(_ post: Post) -> String {
        let date = post.created.formatted(Date.ISO8601FormatStyle(dateTimeSeparator: .space))
        return "\(style.bold(post.author.name)) \(style.dim("@\(post.author.handle) · \(date) · \(post.id)"))"
    }

    private func colour(_ segment: TextSegment) -> String {
        guard let kind = segment.mention?.kind else { return segment.text }
        return style.mention(segment.shown, kind: kind)
    }
}
