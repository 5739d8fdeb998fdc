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
    /// `source,target,weight`, one row per edge (as Gephi's and most tools' edge lists read).
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

    /// A file name for a download: `network-swift-7d.gexf`.
    public static func name(_ network: MentionNetwork, _ format: NetworkFormat) -> String {
        "network-\(FileNames.slug(network.term))-\(network.options.window).\(format.rawValue)"
    }

    /// `source,target,weight`, each mention written as `naming` gives it.
    static func csv(_ network: MentionNetwork, naming: (String) -> String = { $0 }) -> String {
        CSV.row(["source", "target", "weight"])
            + network.edges.map {
                CSV.row([
                    naming(network.nodes[$0.source].mention), naming(network.nodes[$0.target].mention),
                    String($0.weight),
                ])
            }.joined()
    }
}
