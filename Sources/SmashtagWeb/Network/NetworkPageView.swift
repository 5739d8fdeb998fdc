import AppStore
import Exports
import Team

/// A term's Network page: the options (window, size, lightest edge, the term's own hashtags), the drawing, the pairs
/// as a table (for screen readers, and for anyone without the picture), the nodes in a second table, and the exports.
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
        minimumWeight = options.minimumWeight
        leavesOutTermHashtags = options.leavesOutTermHashtags
        windows = TimeWindow.allCases.map {
            Choice(value: $0.rawValue, title: $0.label, isCurrent: $0 == options.window)
        }
        let sizes =
            NetworkParameters.pageTops.contains(options.top)
            ? NetworkParameters.pageTops : (NetworkParameters.pageTops + [options.top]).sorted()
        tops = sizes.map { Choice(value: String($0), title: "\($0) mentions", isCurrent: $0 == options.top) }
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
                network, title: "The network of “\(network.term)”, \(options.window.span)",
                searchURLs: nodes.map(\.searchURL))
        exports =
            [
                Export(
                    title: "JSON", url: SiteURL.apiNetwork(term: network.term, options: options, format: .json).path),
                Export(title: "CSV", url: SiteURL.apiNetwork(term: network.term, options: options, format: .csv).path),
                Export(
                    title: "GEXF", url: SiteURL.apiNetwork(term: network.term, options: options, format: .gexf).path),
            ]
            + TimelineStep.allCases.map { step in
                var timed = options
                timed.timeline = step
                return Export(
                    title: "GEXF by \(step.rawValue)",
                    url: SiteURL.apiNetwork(term: network.term, options: timed, format: .gexf).path)
            }
        popularityURL = SiteURL.popularity(tab, term: network.term, window: options.window).path
    }

    private static func summary(_ network: MentionNetwork) -> String {
        let span = network.options.window.span
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

extension NetworkPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("<div class=\"network-page\">\n<p class=\"dim note\">\(summary)</p>\n")
        writeOptions(to: &html)
        if let graph {
            html.append("<figure class=\"network-frame\">\n")
            graph.write(to: &html)
            html.append(
                """
                <figcaption class="dim small"><span class="key" data-mention="hashtag">●</span> hashtag \
                <span class="key" data-mention="user">●</span> user · circles by mentions, lines by posts together\
                </figcaption>
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

    private func writeOptions(to html: inout HTMLWriter) {
        let window = windows.first(where: \.isCurrent)?.title ?? ""
        let top = tops.first(where: \.isCurrent)?.title ?? ""
        let own = leavesOutTermHashtags ? " · without the term’s hashtags" : ""
        html.append(
            """
            <details class="network-options-box"><summary>\(window) · \(top) · pairs of \(minimumWeight)+ \
            posts\(own)</summary>
            <form class="network-options" method="get" action="\(url: Route.network(tab).path())">
            <input type="hidden" name="term" value="\(term)">

            """)
        if let back { html.append("<input type=\"hidden\" name=\"back\" value=\"\(back)\">\n") }
        html.append("<label>Window <select name=\"window\">")
        for choice in windows { writeOption(choice, to: &html) }
        html.append("</select></label>\n<label>Show <select name=\"top\">")
        for choice in tops { writeOption(choice, to: &html) }
        let checked: Markup = leavesOutTermHashtags ? " checked" : .empty
        html.append(
            """
            </select></label>
            <label>Pairs of at least <input name="min" type="number" inputmode="numeric" min="1" \
            value="\(minimumWeight)"> posts</label>
            <label class="check"><input type="checkbox" name="exclude" value="term"\(checked)> Leave out the term’s \
            own hashtags</label>
            <button type="submit">Draw</button>
            </form>
            </details>

            """)
    }

    private func writeOption(_ choice: Choice, to html: inout HTMLWriter) {
        let selected: Markup = choice.isCurrent ? " selected" : .empty
        html.append("<option value=\"\(choice.value)\"\(selected)>\(choice.title)</option>")
    }

    private func writeEdges(to html: inout HTMLWriter) {
        guard !edges.isEmpty else {
            if !nodes.isEmpty {
                html.append(
                    "<p class=\"empty\">No two of these are named together in \(minimumWeight) posts or more.</p>\n")
            }
            return
        }
        html.append(
            """
            <table class="pairs">
            <caption>Named together</caption>
            <tr><th scope="col">Mention</th><th scope="col">With</th><th scope="col">Posts</th></tr>

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
            <details class="counts"><summary>The mentions</summary>
            <table>
            <tr><th scope="col">Mention</th><th scope="col">Posts</th></tr>

            """)
        for node in nodes { html.append("<tr><td>\(link(node))</td><td>\(node.count)</td></tr>\n") }
        html.append("</table>\n</details>\n")
    }

    private func link(_ node: NodeRow) -> Markup {
        "<a class=\"item\" href=\"\(url: node.searchURL)\" data-mention=\"\(node.kind)\">\(node.mention)</a>"
    }
}
