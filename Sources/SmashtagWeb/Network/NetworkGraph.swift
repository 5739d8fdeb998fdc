import AppStore
import Posts

/// A network drawn by the server as inline SVG (no script): edges as lines as thick as their weight, nodes as circles
/// as large as their count, coloured by kind (the stylesheet's colours, so light and dark both read), each node a link
/// that searches its mention, named for screen readers by its mention and count.
struct NetworkGraph: Sendable {
    struct Node: Sendable {
        let mention: String
        let kind: String
        let count: Int
        let x: String, y: String, radius: String
        /// A finger's target around a small circle, invisible.
        let hitRadius: String
        let label: (x: String, y: String)?
        let searchURL: String
    }

    struct Line: Sendable {
        let x1: String, y1: String, x2: String, y2: String
        let width: String
    }

    let title: String
    let nodes: [Node]
    let lines: [Line]
    /// Lines are arrows, from the one who acted to the one acted on.
    let isDirected: Bool

    /// `searchURLs`: each node's search, in the network's order.
    init(_ network: MentionNetwork, title: String, searchURLs: [String]) {
        self.title = title
        let layout = NetworkLayout(network)
        nodes = network.nodes.enumerated().map { index, node in
            let point = layout.positions[index]
            return Node(
                mention: node.mention, kind: node.kind.singular, count: node.count, x: svgNumber(point.x),
                y: svgNumber(point.y), radius: svgNumber(layout.radii[index]),
                hitRadius: svgNumber(max(layout.radii[index] + 4, 12)),
                label: layout.labels[index].map { (svgNumber($0.x), svgNumber($0.y)) }, searchURL: searchURLs[index])
        }
        let weights = network.edges.map(\.weight)
        let (lightest, heaviest) = (Double(weights.min() ?? 1), Double(weights.max() ?? 1))
        isDirected = network.options.kind.isDirected
        lines = network.edges.map { [isDirected] edge in
            var (from, to) = (layout.positions[edge.source], layout.positions[edge.target])
            if isDirected { (from, to) = Self.arrow(from: from, to: to, radius: layout.radii[edge.target]) }
            let share = heaviest == lightest ? 0.5 : (Double(edge.weight) - lightest) / (heaviest - lightest)
            return Line(
                x1: svgNumber(from.x), y1: svgNumber(from.y), x2: svgNumber(to.x), y2: svgNumber(to.y),
                width: svgNumber(0.75 + share * 4.25))
        }
    }

    /// An arrow's line: moved a little to its right, so that two people answering each other are two arrows side by
    /// side, and stopped at the edge of the target's circle, where its head shows.
    private static func arrow(
        from: NetworkLayout.Point, to: NetworkLayout.Point, radius: Double
    ) -> (NetworkLayout.Point, NetworkLayout.Point) {
        let (dx, dy) = (to.x - from.x, to.y - from.y)
        let length = max((dx * dx + dy * dy).squareRoot(), 0.001)
        let (ux, uy) = (dx / length, dy / length)
        let (sx, sy) = (-uy * 2.5, ux * 2.5)
        let stop = min(radius + 1.5, length / 2)
        return (
            NetworkLayout.Point(x: from.x + sx, y: from.y + sy),
            NetworkLayout.Point(x: to.x + sx - ux * stop, y: to.y + sy - uy * stop)
        )
    }

    func write(to html: inout HTMLWriter) {
        html.append(
            """
            <svg class="network" viewBox="0 0 \(Int(NetworkLayout.width)) \(Int(NetworkLayout.height))" \
            role="group" aria-label="\(title)">

            """)
        if isDirected {
            html.append(
                """
                <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" \
                markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z"/></marker></defs>

                """)
        }
        let arrowHead: Markup = isDirected ? #" marker-end="url(#arrow)""# : .empty
        html.append("<g class=\"edges\" aria-hidden=\"true\">\n")
        // Lightest first, so the heaviest lines are drawn on top.
        for line in lines.reversed() {
            html.append(
                """
                <line x1="\(line.x1)" y1="\(line.y1)" x2="\(line.x2)" y2="\(line.y2)" stroke-width="\(line.width)"\
                \(arrowHead)/>

                """)
        }
        html.append("</g>\n<g class=\"nodes\">\n")
        // Least mentioned first, so the most mentioned are drawn on top.
        for node in nodes.reversed() {
            html.append(
                """
                <a href="\(url: node.searchURL)" aria-label="\(node.mention): \(postCount(node.count))" \
                data-mention="\(node.kind)"><circle class="hit" cx="\(node.x)" cy="\(node.y)" r="\(node.hitRadius)"/>\
                <circle cx="\(node.x)" cy="\(node.y)" r="\(node.radius)"/>
                """)
            if let label = node.label {
                html.append("<text x=\"\(label.x)\" y=\"\(label.y)\">\(node.mention)</text>")
            }
            html.append("</a>\n")
        }
        html.append("</g>\n</svg>\n")
    }
}
