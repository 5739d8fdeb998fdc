import AppStore
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The formats a co-mention network is exported in.
public enum NetworkFormat: String, Sendable, CaseIterable {
    /// `{"term", "window", "nodes": […], "edges": […]}`.
    case json
    /// `source,target,weight`, one row per edge (as Gephi's and most tools' edge lists read); a conversation network's
    /// `source,target,kind,weight`.
    case csv
    /// GEXF 1.3, for Gephi and networkx: node kinds and counts, edge weights, and a timeline when asked for.
    case gexf

    public var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        case .gexf: "application/gexf+xml; charset=utf-8"
        }
    }
}

/// A network as a file of one of the formats.
public enum NetworkFile {
    public static func text(_ network: MentionNetwork, _ format: NetworkFormat) -> String {
        switch format {
        case .json: PublicJSON.text(network) + "\n"
        case .csv: csv(network)
        case .gexf: GEXF(network).text
        }
    }

    /// A file name for a download: `network-swift-7d.gexf`, `replies-swift-all.csv`.
    public static func name(_ network: MentionNetwork, _ format: NetworkFormat) -> String {
        let kind = network.options.kind
        return "\(kind.isDirected ? kind.rawValue : "network")-\(FileNames.slug(network.term))-"
            + "\(network.options.window).\(format.rawValue)"
    }

    /// `source,target,weight`, each mention written as `naming` gives it; a conversation network's rows say their
    /// kind too (`source,target,kind,weight`, from the one who acted to the one acted on).
    static func csv(_ network: MentionNetwork, naming: (String) -> String = { $0 }) -> String {
        let kind = network.options.kind
        let kindColumn = kind.isDirected ? [kind.edgeName] : []
        return CSV.row(["source", "target"] + (kind.isDirected ? ["kind"] : []) + ["weight"])
            + network.edges.map {
                CSV.row(
                    [naming(network.nodes[$0.source].mention), naming(network.nodes[$0.target].mention)] + kindColumn
                        + [String($0.weight)])
            }.joined()
    }
}
