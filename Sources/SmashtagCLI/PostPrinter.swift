import AppStore
import Posts
import Twitter
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prints posts as JSON Lines (one `PublicJSON` post a line) or as text with mentions coloured by kind.
struct PostPrinter {
    let format: OutputFormat
    let style: TerminalStyle
    /// JSON Lines gather here and go out a megabyte at a time: `JSONEncoder` and a `print` per post were most of
    /// `inspect --format json`'s time.
    private var lines = JSONWriter()

    init(format: OutputFormat, style: TerminalStyle) {
        self.format = format
        self.style = style
    }

    /// A post as a JSON line: one `PublicJSON` object, times to the second.
    static let jsonLine = PostLineWriting { post, json in
        json.writePublic(post, times: .wholeSeconds)
        json.newLine()
    }

    /// How the reader is to write posts for this printer where it decodes them; nil when it prints them itself.
    var readerWriting: PostLineWriting? { format == .json ? Self.jsonLine : nil }

    mutating func print(_ post: Post) {
        switch format {
        case .json:
            Self.jsonLine.write(post, into: &lines)
            if lines.byteCount >= 1 << 20 { flush() }
        case .text: Swift.print(text(post), terminator: "\n\n")
        }
    }

    /// Posts the reader wrote (`readerWriting`).
    mutating func print(_ written: WrittenPosts) {
        lines.appendLines(written.bytes)
        if lines.byteCount >= 1 << 20 { flush() }
    }

    /// Writes what is gathered: before a problem goes to stderr, so a terminal shows both in order, and at the end.
    mutating func flush() {
        guard !lines.isEmpty else { return }
        let bytes = lines.take()
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = write(STDOUT_FILENO, buffer.baseAddress! + written, buffer.count - written)
                guard count > 0 || errno == EINTR else { return }
                written += max(count, 0)
            }
        }
    }

    /// The post as text lines; `marker` before its first line (a thread marks its post with it).
    func text(_ post: Post, marker: String = "") -> String {
        var lines = [marker + header(post)]
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
        if !post.seenOn.isEmpty {
            lines.append(
                style.dim("Seen on \(counted(post.seenOn.count, "server")): " + post.seenOn.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }

    private func header(_ post: Post) -> String {
        let date = post.created.formatted(Date.ISO8601FormatStyle(dateTimeSeparator: .space))
        return "\(style.bold(post.author.name)) \(style.dim("@\(post.author.handle) · \(date) · \(post.id)"))"
    }

    private func colour(_ segment: TextSegment) -> String {
        guard let kind = segment.mention?.kind else { return TerminalText.lines(segment.text) }
        return style.mention(segment.shown, kind: kind)
    }
}
