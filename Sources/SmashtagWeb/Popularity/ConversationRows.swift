import AppStore
import Posts

/// The Popularity page's conversations (all time, whatever the window): the posts replied to and quoted most, each
/// opening its thread, and the people whose posts drew the most replies, each opening a search of their posts. Left
/// out while the term has no reply or quote.
struct ConversationRows: Sendable {
    struct Target: Sendable {
        let title: String
        let count: String
        let threadURL: String
    }

    struct Starter: Sendable {
        let user: String
        let searchURL: String
        let drew: String
    }

    let repliedTo: [Target]
    let quoted: [Target]
    let starters: [Starter]

    init?(_ conversations: TermConversations, tab: Tab, here: String) {
        guard !conversations.isEmpty else { return nil }
        func targets(_ targets: [TermConversations.Target], _ noun: String) -> [Target] {
            targets.map { target in
                Target(
                    title: target.author.map { "\($0)’s post" } ?? "A post on \(target.post.network.displayName)",
                    count: counted(target.count, noun),
                    threadURL: SiteURL.thread(tab, target.post, back: here).path)
            }
        }
        repliedTo = targets(conversations.mostRepliedTo, "reply")
        quoted = targets(conversations.mostQuoted, "quote")
        starters = conversations.starters.map { starter in
            Starter(
                user: starter.user,
                searchURL: SiteURL.search(tab, query: MentionSearch.user(starter.user), back: here).path,
                drew: "\(counted(starter.posts, "post")) drew \(counted(starter.replies, "reply"))")
        }
    }

    func write(to html: inout HTMLWriter) {
        write(repliedTo, title: "Most replied to", to: &html)
        write(quoted, title: "Most quoted", to: &html)
        if !starters.isEmpty {
            html.append("<section class=\"mentions starters\">\n  <h2>Who starts conversations</h2>\n  <ul>\n")
            for starter in starters {
                html.append(
                    """
                      <li><a class="item" href="\(url: starter.searchURL)" data-mention="user"><span class="name">\
                    \(starter.user)</span></a><span class="count">\(starter.drew)</span></li>

                    """)
            }
            html.append("  </ul>\n</section>\n")
        }
        html.append("<p class=\"dim small span\">Conversations: over all the posts fetched for the term.</p>\n")
    }

    private func write(_ targets: [Target], title: String, to html: inout HTMLWriter) {
        guard !targets.isEmpty else { return }
        html.append("<section class=\"mentions conversations\">\n  <h2>\(title)</h2>\n  <ul>\n")
        for target in targets {
            html.append(
                """
                  <li><a class="item" href="\(url: target.threadURL)"><span class="name">\(target.title)</span>\
                <span class="partners">Show thread</span></a><span class="count">\(target.count)</span></li>

                """)
        }
        html.append("  </ul>\n</section>\n")
    }
}
