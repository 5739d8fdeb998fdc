import Posts

/// A post in its conversation: the posts it answers (each opening its own thread), the post itself, marked and
/// opening its Mentions page, and its replies as an indented tree, oldest first; a place the source could not fill
/// is a row saying why, and replies a page leaves out are a link saying how many.
struct ThreadPageView: Sendable {
    let chrome: Chrome
    let source: String
    let notes: [String]
    let ancestors: [Place]
    let post: PostRow
    let replies: [Branch]
    /// The next page of the post's own replies, and how many are left.
    let more: (count: Int, url: String)?

    /// A row of the thread: a post, or the sentence in its place.
    enum Place: Sendable {
        case post(PostRow)
        case unavailable(String)

        init(_ item: ThreadItem, links: PostLinks) {
            switch item {
            case .post(let post): self = .post(PostRow(post, links: links, opening: .thread))
            case .unavailable(_, let gap): self = .unavailable(gap.sentence)
            }
        }
    }

    struct Branch: Sendable {
        let place: Place
        let replies: [Branch]
        /// The replies not shown here, opened by the reply's own thread.
        let more: (count: Int, url: String)?

        init(_ branch: ThreadBranch, tab: Tab, links: PostLinks, back: String) {
            place = Place(branch.item, links: links)
            replies = branch.replies.map { Branch($0, tab: tab, links: links, back: back) }
            more =
                if branch.moreReplies > 0, let post = branch.item.post {
                    (branch.moreReplies, SiteURL.thread(tab, post.key, back: back).path)
                } else { nil }
        }
    }

    /// `opensMentions`: the post has a Mentions page (a search or the corpus kept it).
    init(_ thread: PostThread, tab: Tab, back: String?, here: String, opensMentions: Bool) {
        chrome = Chrome(title: "Thread", tab: tab, back: back, isRoot: false)
        source = thread.source
        notes = thread.notes
        let links = PostLinks(tab: tab, back: here)
        ancestors = thread.ancestors.map { Place($0, links: links) }
        post = PostRow(thread.post, links: links, opening: opensMentions ? .mentionsOnly : .nowhere)
        replies = thread.replies.map { Branch($0, tab: tab, links: links, back: here) }
        let last = thread.replies.last?.item
        more =
            if thread.moreReplies > 0, let last {
                (thread.moreReplies, SiteURL.thread(tab, thread.post.key, after: last.id, back: back).path)
            } else { nil }
    }
}

extension ThreadPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("<p class=\"dim small thread-source\">From \(source).</p>\n")
        for note in notes { html.append("<p class=\"dim note\">\(note)</p>\n") }
        if !ancestors.isEmpty {
            html.append("<ol class=\"posts thread-above\" aria-label=\"The posts it answers\">\n")
            for place in ancestors { place.write(to: &html) }
            html.append("</ol>\n")
        }
        html.append("<ol class=\"posts thread-post\" aria-label=\"The post\">\n")
        post.write(to: &html, marked: true)
        html.append("</ol>\n")
        html.append("<h2 class=\"thread-heading\">Replies</h2>\n")
        if replies.isEmpty && more == nil { html.append("<p class=\"empty\">No replies.</p>\n") }
        Branch.write(replies, to: &html)
        if let more {
            html.append(
                """
                <a class=\"button older\" href=\"\(url: more.url)\">\(ThreadLimits.more(more.count))</a>\n
                """)
        }
    }
}

extension ThreadPageView.Place {
    func write(to html: inout HTMLWriter, nested: (inout HTMLWriter) -> Void = { _ in }) {
        switch self {
        case .post(let row): row.write(to: &html, nested: nested)
        case .unavailable(let sentence):
            html.append("<li class=\"post gap\"><p class=\"dim\">\(sentence)</p>")
            nested(&html)
            html.append("</li>\n")
        }
    }
}

extension ThreadPageView.Branch {
    static func write(_ branches: [Self], to html: inout HTMLWriter) {
        guard !branches.isEmpty else { return }
        html.append("<ol class=\"posts replies\">\n")
        for branch in branches {
            branch.place.write(to: &html) { html in
                write(branch.replies, to: &html)
                if let more = branch.more {
                    html.append(
                        """
                        <a class=\"more-replies small\" href=\"\(url: more.url)\">\(ThreadLimits.more(more.count))</a>\n
                        """)
                }
            }
        }
        html.append("</ol>\n")
    }
}
