import ArgumentParser
import Posts
import SmashtagApp

/// `smashtag thread POST`: a post in its conversation, as the thread page shows it, from the corpus when it holds
/// the post, else from the post's network.
struct ThreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread",
        abstract: "Show a post in its conversation: the posts it answers, then its replies as a tree.",
        discussion:
            """
            POST is network:id (twitter:1850…, mastodon:1133…, bluesky:at://…), or the post's address on X, Bluesky \
            or the configured Mastodon server. The corpus is asked first, then the post's network (Mastodon's \
            context, Bluesky's getPostThread). --after ID gives the replies after that one, when a thread has more \
            than one page.
            """)

    @Argument(help: ArgumentHelp("The post: network:id or its web address.", valueName: "post"))
    var post: String

    @Option(help: "Only the replies after this reply (the next page).")
    var after: String?

    @Option(help: "text (coloured on a terminal) or json.")
    var format: OutputFormat = .text

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard PostAddress.key(post) != nil else {
            throw ValidationError(
                """
                “\(post.excerpt())” is not a post: give network:id (twitter:…, mastodon:…, bluesky:at://…) or the \
                post's address on X, Mastodon or Bluesky.
                """)
        }
    }

    func run() async throws {
        guard let key = PostAddress.key(post) else { return }
        let directory = try DataDirectory(common.dataDirectory)
        let sources = try await SourceChoice(common, directory: directory).open(in: directory, at: try store.location())
        let thread = try await CommandFailure.reporting { try await sources.thread(of: key, after: after) }
        guard let thread else {
            throw CommandFailure(
                "No source here has \(key.network.displayName) post \(key.id): it may have been deleted.")
        }
        switch format {
        case .json: print(thread.json(next: nil))
        case .text: ThreadPrinter(style: .standardOutput).print(thread)
        }
    }
}

/// A thread as text: the chain above, the post marked with ▶, the replies indented two spaces a level, and the
/// places left out or missing said where they are.
private struct ThreadPrinter {
    let style: TerminalStyle

    func print(_ thread: PostThread) {
        Swift.print(style.dim("From \(thread.source)."))
        for note in thread.notes { Swift.print(style.dim(note)) }
        Swift.print()
        for item in thread.ancestors { print(item, indent: "") }
        Swift.print(PostPrinter(format: .text, style: style).text(thread.post, marker: "▶ "), terminator: "\n\n")
        if thread.replies.isEmpty && thread.moreReplies == 0 { Swift.print(style.dim("No replies.")) }
        for branch in thread.replies { print(branch, indent: "  ") }
        if thread.moreReplies > 0, let last = thread.replies.last?.item {
            Swift.print(style.dim("\(ThreadLimits.more(thread.moreReplies)): --after \(last.id)"))
        }
    }

    private func print(_ branch: ThreadBranch, indent: String) {
        print(branch.item, indent: indent)
        for reply in branch.replies { print(reply, indent: indent + "  ") }
        if branch.moreReplies > 0, let post = branch.item.post {
            Swift.print(
                indent + "  " + style.dim("\(ThreadLimits.more(branch.moreReplies)): smashtag thread \(post.key)"))
            Swift.print()
        }
    }

    private func print(_ item: ThreadItem, indent: String) {
        switch item {
        case .post(let post):
            let text = PostPrinter(format: .text, style: style).text(post, marker: "")
            Swift.print(
                text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
                    .joined(separator: "\n"), terminator: "\n\n")
        case .unavailable(_, let gap): Swift.print(indent + style.dim(gap.sentence) + "\n")
        }
    }
}
