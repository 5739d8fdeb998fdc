import AppStore
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A network as GEXF 1.3 (gexf.net): a graph whose nodes carry their kind and count and whose edges carry their weight
/// — undirected for co-mentions, directed for a conversation network (whose counts are interactions received). With a
/// timeline, the graph is dynamic: each node and edge has a spell per day or week in which it was named (dates, each
/// spell from its step's first day to the next step's), and its count in that step as a dynamic attribute — `mentions`
/// for nodes, `posts` for edges, so the static `weight` stays the total that networkx and Gephi's statistics read.
struct GEXF {
    let network: MentionNetwork

    init(_ network: MentionNetwork) {
        self.network = network
    }

    var text: String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">
              <meta>
                <creator>Smashtag</creator>
                <description>\(escaped(description))</description>
              </meta>

            """
        xml +=
            isDynamic ? graphOpening(mode: "dynamic") + " timeformat=\"date\">\n" : graphOpening(mode: "static") + ">\n"
        xml += attributes
        xml += "    <nodes>\n" + network.nodes.indices.map(node).joined() + "    </nodes>\n"
        xml += "    <edges>\n" + network.edges.indices.map(edge).joined() + "    </edges>\n"
        return xml + "  </graph>\n</gexf>\n"
    }

    private var isDynamic: Bool { network.options.timeline != nil }

    private var description: String {
        let span = network.options.window.span
        return switch network.options.kind {
        case .mentions: "Hashtags and users named together in the posts fetched for “\(network.term)”, \(span)."
        case .replies: "Who replies to whom in the posts fetched for “\(network.term)”, \(span)."
        case .quotes: "Who quotes whom in the posts fetched for “\(network.term)”, \(span)."
        case .reposts: "Who reposts whom in the posts fetched for “\(network.term)”, \(span)."
        }
    }

    /// A conversation network is directed: from the one who acted to the one acted on.
    private func graphOpening(mode: String) -> String {
        "  <graph defaultedgetype=\"\(network.options.kind.isDirected ? "directed" : "undirected")\" mode=\"\(mode)\""
    }

    private var attributes: String {
        var xml = """
                <attributes class="node" mode="static">
                  <attribute id="kind" title="kind" type="string"/>
                  <attribute id="count" title="count" type="integer"/>
                </attributes>

            """
        if isDynamic {
            xml += """
                    <attributes class="node" mode="dynamic">
                      <attribute id="mentions" title="mentions" type="integer"/>
                    </attributes>
                    <attributes class="edge" mode="dynamic">
                      <attribute id="posts" title="posts" type="integer"/>
                    </attributes>

                """
        }
        return xml
    }

    private func node(_ index: Int) -> String {
        let node = network.nodes[index]
        let spells = isDynamic ? network.nodeSpells[index] : []
        return """
                  <node id="n\(index)" label="\(escaped(node.mention))">
                    <attvalues>
                      <attvalue for="kind" value="\(node.kind.singular)"/>
                      <attvalue for="count" value="\(node.count)"/>
            \(dynamicValues(spells, attribute: "mentions"))        </attvalues>
            \(spellList(spells))      </node>

            """
    }

    private func edge(_ index: Int) -> String {
        let edge = network.edges[index]
        let opening =
            "      <edge id=\"e\(index)\" source=\"n\(edge.source)\" target=\"n\(edge.target)\""
            + " weight=\"\(edge.weight)\""
        guard isDynamic else { return opening + "/>\n" }
        let spells = network.edgeSpells[index]
        return opening + ">\n        <attvalues>\n" + dynamicValues(spells, attribute: "posts")
            + "        </attvalues>\n"
            + spellList(spells) + "      </edge>\n"
    }

    private func dynamicValues(_ spells: [MentionNetwork.Spell], attribute: String) -> String {
        spells.map {
            "          <attvalue for=\"\(attribute)\" value=\"\($0.value)\""
                + " start=\"\(day($0.start))\" end=\"\(day($0.end))\"/>\n"
        }.joined()
    }

    private func spellList(_ spells: [MentionNetwork.Spell]) -> String {
        guard !spells.isEmpty else { return "" }
        return "        <spells>\n"
            + spells.map { "          <spell start=\"\(day($0.start))\" end=\"\(day($0.end))\"/>\n" }.joined()
            + "        </spells>\n"
    }

    /// `2026-11-23`: the steps start at midnight UTC.
    private func day(_ date: Date) -> String {
        String(date.formatted(.iso8601).prefix(10))
    }

    private func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
