#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppStore
import Posts
import Twitter

/// Prints tweets as JSON Lines (SPEC §5) or as text with mentions coloured by kind.
struct PostPrinter {
    let format: OutputFormat
    let style: TerminalStyle

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    static func json(_ value: some Encodable) -> String {
        // Encoding our own model types cannot fail.
        String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    func print(_ tweet: Post) {
        switch format {
        case .json: Swift.print(Self.json(tweet))
        case .text: Swift.print(text(tweet), terminator: "\n\n")
        }
    }

    private func text(_ tweet: Post) -> String {
        var lines = [header(tweet)]
        if let reposter = tweet.repostedBy { lines.append(style.dim("↻ \(tweet.network.repostVerb) by @\(reposter.screenName)")) }
        if let replying = tweet.replyingTo { lines.append(style.dim(replying.sentence)) }
        lines.append(tweet.shownSegments.map(colour).joined())
        if let card = tweet.card { lines.append(style.dim("▭ \(card.title.isEmpty ? card.host : card.title) — \(card.host)")) }
        if !tweet.media.isEmpty { lines.append(style.dim(tweet.media.count == 1 ? "▣ 1 image" : "▣ \(tweet.media.count) images")) }
        return lines.joined(separator: "\n")
    }

    private func header(_ tweet: Post) -> String {
        let date = tweet.created.formatted(Date.ISO8601FormatStyle(dateTimeSeparator: .space))
        return "\(style.bold(tweet.user.name)) \(style.dim("@\(tweet.user.screenName) · \(date) · \(tweet.id)"))"
    }

    private func colour(_ segment: TextSegment) -> String {
        guard let kind = segment.mention?.kind else { return segment.text }
        return style.mention(segment.shown, kind: kind)
    }
}
