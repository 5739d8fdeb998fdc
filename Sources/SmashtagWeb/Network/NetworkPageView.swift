import AppStore
import Exports
import Team

/// A term's Network page: which network (named together, or who replies to, quotes or reposts whom), the options
/// (window, size, lightest edge, the term's own hashtags), the drawing, the edges as a table (for screen readers, and
/// for anyone without the picture), the nodes in a second table, and the exports.
struct NetworkPageView: Sendable {
    struct Choice: Sendable {
        let value: String
        let title: String
        let isCurrent: Bool
    }

    struct NodeRow: Sendable {
        let mention: String
        let kind: String
        let count: Int
        let searchURL: String
    }

    struct EdgeRow: Sendable {
        let source: NodeRow
        let target: NodeRow
        let weight: Int
    }

    struct Export: Sendable {
        let title: String
        let url: String
    }

    let chrome: Chrome
    let term: String
    let kind: NetworkKind
    let kinds: [LinkChoice]
    let summary: String
    let tab: Tab
    let back: String?
    let windows: [Choice]
    let tops: [Choice]
    let minimumWeight: Int
    let leavesOutTermHashtags: Bool
    let graph: NetworkGraph?
    let nodes: [NodeRow]
    let edges: [EdgeRow]
    let exports: [Export]
    let popularityURL: String

    init(_ network: MentionNetwork, tab: Tab, back: String?) {
        let options = network.options
        chrome = Chrome(title: "Network: " + network.term, tab: tab, back: back, isRoot: false)
        (term, self.tab, self.back) = (network.term, tab, back)
        kind = options.kind
        kinds = NetworkKind.allCases.map { kind in
            var other = options
            other.kind = kind
            return LinkChoice(
                title: Self.shortLabel(kind),
                url: SiteURL.network(tab, term: network.term, options: other, back: back).path,
                isCurrent: kind == options.kind)
        }
        minimumWeight = options.minimumWeight
        leavesOutTermHashtags = options.leavesOutTermHashtags
        windows = TimeWindow.allCases.map {
            Choice(value: $0.rawValue, title: $0.label, isCurrent: $0 == options.window)
        }
        let sizes =
            NetworkParameters.pageTops.contains(options.top)
            ? NetworkParameters.pageTops : (NetworkParameters.pageTops + [options.top]).sorted()
        let nodeName = options.kind.isDirected ? "people" : "mentions"
        tops = sizes.map { Choice(value: String($0), title: "\($0) \(nodeName)", isCurrent: $0 == options.top) }
        let here = SiteURL.network(tab, term: network.term, options: options, back: back).path
        nodes = network.nodes.map { node in
            let query = node.kind == .hashtags ? MentionSearch.hashtag(node.mention) : MentionSearch.user(node.mention)
            return NodeRow(
                mention: node.mention, kind: node.kind.singular, count: node.count,
                searchURL: SiteURL.search(tab, query: query, back: here).path)
        }
        edges = network.edges.map { [nodes] edge in
            EdgeRow(source: nodes[edge.source], target: nodes[edge.target], weight: edge.weight)
        }
        summary = Self.summary(network)
        graph =
            network.nodes.isEmpty
            ? nil
            : NetworkGraph(
                network, title: "\(options.kind.label) in “\(network.term)”, \(options.window.span)",
                searchURLs: nodes.map(\.searchURL))
        exports =
            [
                Export(
                    title: "JSON", url: SiteURL.apiNetwork(term: network.term, options: options, format: .json).path),
                Export(title: "CSV", url: SiteURL.apiNetwork(term: network.term, options: options, format: .csv).path),
                Export(
                    title: "GEXF", url: SiteURL.apiNetwork(term: network.term, options: options, format: .gexf).path),
            ]
            + (options.kind.isDirected ? [] : TimelineStep.allCases).map { step in
                var timed = options
                timed.timeline = step
                return Export(
                    title: "GEXF by \(step.rawValue)",
                    url: SiteURL.apiNetwork(term: network.term, options: timed, format: .gexf).path)
            }
        popularityURL = SiteURL.popularity(tab, term: network.term, window: options.window).path
    }

    private static func shortLabel(_ kind: NetworkKind) -> String {
        switch kind {
        case .mentions: "Named together"
        case .replies: "Replies"
        case .quotes: "Quotes"
        case .reposts: "Reposts"
        }
    }

    private static func summary(_ network: MentionNetwork) -> String {
        let span = network.options.window.span
        if network.options.kind.isDirected { return conversationSummary(network) }
        guard !network.nodes.isEmpty else {
            return "No hashtag or user is counted for “\(network.term)” in \(span) yet."
        }
        let pairs = network.edges.count == 1 ? "1 pair" : "\(network.edges.count) pairs"
        return """
            The \(network.nodes.count) hashtags and users mentioned most in the posts fetched for “\(network.term)” \
            (\(span)), and the \(pairs) of them named together in the same posts. Tap one to search it.
            """
    }
}

extension NetworkPageView {
    /// What a conversation network shows, in the words of its kind.
    private static func conversationSummary(_ network: MentionNetwork) -> String {
        let span = network.options.window.span
        let verb = Verb(network.options.kind)
        guard !network.nodes.isEmpty else {
            return "No one \(verb.one) anyone in the posts fetched for “\(network.term)” in \(span) yet."
        }
        let links = network.edges.count == 1 ? "1 arrow" : "\(network.edges.count) arrows"
        return """
            The \(network.nodes.count) people who \(verb.many) others or are \(verb.done) most in the posts fetched \
            for “\(network.term)” (\(span)), and \(links) from who \(verb.one) whom. Tap one to search them.
            """
    }

    /// A conversation's verb: "reply to", "replies to", "replied to".
    struct Verb {
        let many: String
        let one: String
        let done: String

        init(_ kind: NetworkKind) {
            (many, one, done) =
                switch kind {
                case .mentions: ("name", "names", "named")
                case .replies: ("reply to", "replies to", "replied to")
                case .quotes: ("quote", "quotes", "quoted")
                case .reposts: ("repost", "reposts", "reposted")
                }
        }
    }

    /// The edge table's caption and columns, and the node table's.
    struct Words {
        let caption: String
        let from: String
        let to: String
        let weight: String
        let nodes: String
        let node: String
        let count: String
    }

    private var words: Words {
        switch kind {
        case .mentions:
            Words(
                caption: "Named together", from: "Mention", to: "With", weight: "Posts", nodes: "The mentions",
                node: "Mention", count: "Posts")
        case .replies:
            Words(
                caption: "Who replies to whom", from: "From", to: "To", weight: "Replies", nodes: "The people",
                node: "User", count: "Replies received")
        case .quotes:
            Words(
                caption: "Who quotes whom", from: "From", to: "Quoting", weight: "Quotes", nodes: "The people",
                node: "User", count: "Quotes received")
        case .reposts:
            Words(
                caption: "Who reposts whom", from: "From", to: "Reposting", weight: "Reposts", nodes: "The people",
                node: "User", count: "Reposts received")
        }
    }
}

extension NetworkPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("<div class=\"network-page\">\n")
        LinkChoice.write(kinds, navClass: "buckets network-kinds", label: "Network", to: &html)
        html.append("<p class=\"dim note\">\(summary)</p>\n")
        writeOptions(to: &html)
        if let graph {
            html.append("<figure class=\"network-frame\">\n")
            graph.write(to: &html)
            html.append(
                """
                <figcaption class="dim small">\(caption)</figcaption>
                </figure>

                """)
        }
        writeEdges(to: &html)
        writeNodes(to: &html)
        html.append("<p class=\"actions\"><a class=\"item\" href=\"\(url: popularityURL)\">Popularity</a> Download:")
        let mayExport = Viewing.caller.may(Needs.export)
        for export in exports where mayExport || export.title == "JSON" {
            html.append(" <a class=\"dim\" href=\"\(url: export.url)\" download>\(export.title)</a>")
        }
        html.append("</p>\n</div>\n")
    }

    private var caption: Markup {
        guard kind.isDirected else {
            return """
                <span class="key" data-mention="hashtag">●</span> hashtag <span class="key" data-mention="user">●\
                </span> user · circles by mentions, lines by posts together
                """
        }
        let verb = Verb(kind)
        return "circles by how often they are \(verb.done) · arrows from who \(verb.one) whom, by posts"
    }

    private func writeOptions(to html: inout HTMLWriter) {
        let window = windows.first(where: \.isCurrent)?.title ?? ""
        let top = tops.first(where: \.isCurrent)?.title ?? ""
        // A conversation's nodes are people: the term's own hashtags are never among them.
        let own = leavesOutTermHashtags && !kind.isDirected ? " · without the term’s hashtags" : ""
        let edges = kind.isDirected ? "arrows" : "pairs"
        html.append(
            """
            <details class="network-options-box"><summary>\(window) · \(top) · \(edges) of \(minimumWeight)+ \
            posts\(own)</summary>
            <form class="network-options" method="get" action="\(url: Route.network(tab).path())">
            <input type="hidden" name="term" value="\(term)">

            """)
        if kind.isDirected { html.append("<input type=\"hidden\" name=\"kind\" value=\"\(kind.rawValue)\">\n") }
        if let back { html.append("<input type=\"hidden\" name=\"back\" value=\"\(back)\">\n") }
        html.append("<label>Window <select name=\"window\">")
        for choice in windows { writeOption(choice, to: &html) }
        html.append("</select></label>\n<label>Show <select name=\"top\">")
        for choice in tops { writeOption(choice, to: &html) }
        html.append(
            """
            </select></label>
            <label>\(kind.isDirected ? "Arrows" : "Pairs") of at least <input name="min" type="number" \
            inputmode="numeric" min="1" value="\(minimumWeight)"> posts</label>

            """)
        if !kind.isDirected {
            let checked: Markup = leavesOutTermHashtags ? " checked" : .empty
            html.append(
                """
                <label class="check"><input type="checkbox" name="exclude" value="term"\(checked)> Leave out the \
                term’s own hashtags</label>

                """)
        }
        html.append("<button type=\"submit\">Draw</button>\n</form>\n</details>\n\n")
    }

    private func writeOption(_ choice: Choice, to html: inout HTMLWriter) {
        let selected: Markup = choice.isCurrent ? " selected" : .empty
        html.append("<option value=\"\(choice.value)\"\(selected)>\(choice.title)</option>")
    }

    private func writeEdges(to html: inout HTMLWriter) {
        guard !edges.isEmpty else {
            if !nodes.isEmpty {
                let none =
                    kind.isDirected
                    ? "None of these people \(Verb(kind).one) another in \(minimumWeight) posts or more."
                    : "No two of these are named together in \(minimumWeight) posts or more."
                html.append("<p class=\"empty\">\(none)</p>\n")
            }
            return
        }
        html.append(
            """
            <table class="pairs">
            <caption>\(words.caption)</caption>
            <tr><th scope="col">\(words.from)</th><th scope="col">\(words.to)</th><th scope="col">\(words.weight)\
            </th></tr>

            """)
        for edge in edges {
            html.append(
                """
                <tr><td>\(link(edge.source))</td><td>\(link(edge.target))</td><td>\(edge.weight)</td></tr>

                """)
        }
        html.append("</table>\n")
    }

    private func writeNodes(to html: inout HTMLWriter) {
        guard !nodes.isEmpty else { return }
        html.append(
            """
            <details class="counts"><summary>\(words.nodes)</summary>
            <table>
            <tr><th scope="col">\(words.node)</th><th scope="col">\(words.count)</th></tr>

            """)
        for node in nodes { html.append("<tr><td>\(link(node))</td><td>\(node.count)</td></tr>\n") }
        html.append("</table>\n</details>\n")
    }

    private func link(_ node: NodeRow) -> Markup {
        "<a class=\"item\" href=\"\(url: node.searchURL)\" data-mention=\"\(node.kind)\">\(node.mention)</a>"
    }
}
