import Bluesky
import Logging
import Mastodon
import Posts
import Twitter

/// The sources Smashtag can search, which of them are configured, and each opened by its name.
public struct SourceCatalog: Sendable {
    /// What `--source` and the Search page's toggles take.
    public enum Name: String, Sendable, CaseIterable {
        case corpus
        case x
        case mastodon
        case bluesky
    }

    /// The X API, when a bearer token is configured.
    public let xAPI: XAPIConfiguration?
    /// The Mastodon server, when SMASHTAG_MASTODON_INSTANCE names one; mastodon.social is searched only when
    /// asked for by name.
    public let mastodon: MastodonConfiguration?
    /// The servers SMASHTAG_MASTODON_INSTANCES lists, searched as one (empty when it is not set); they stand in for
    /// the single server.
    public let mastodonFleet: [MastodonConfiguration]
    /// Why SMASHTAG_MASTODON_INSTANCES cannot be used: every choice of sources is refused with it.
    private let instanceListError: InstanceListError?
    private let namedMastodon: MastodonConfiguration
    /// Bluesky's service and credentials; named without credentials, it says what is missing.
    private let namedBluesky: BlueskyConfiguration
    /// Where a bearer token may be written instead of the environment.
    private let tokenFile: String

    public init(environment: [String: String], dataDirectory: String) {
        tokenFile = dataDirectory + "/" + XAPIConfiguration.tokenFileName
        xAPI = XAPIConfiguration.configured(environment: environment, dataDirectory: dataDirectory)
        mastodon = MastodonConfiguration.configured(environment: environment)
        do {
            (mastodonFleet, instanceListError) = (try MastodonConfiguration.fleet(environment: environment) ?? [], nil)
        } catch {
            (mastodonFleet, instanceListError) = ([], error)
        }
        namedMastodon = MastodonConfiguration.named(environment: environment)
        namedBluesky = BlueskyConfiguration.named(environment: environment, dataDirectory: dataDirectory)
    }

    public init(
        xAPI: XAPIConfiguration? = nil, mastodon: MastodonConfiguration? = nil,
        mastodonFleet: [MastodonConfiguration] = [], bluesky: BlueskyConfiguration? = nil
    ) {
        self.xAPI = xAPI
        self.mastodon = mastodon
        self.mastodonFleet = mastodonFleet
        instanceListError = nil
        namedMastodon = mastodon ?? MastodonConfiguration()
        namedBluesky = bluesky ?? BlueskyConfiguration(credentials: nil)
        tokenFile = XAPIConfiguration.tokenFileName
    }

    /// The address of each configured network's service, whose clock `doctor` compares with this computer's.
    /// Each named as `--source` names it; a fleet's servers as `mastodon (host)`.
    public var serviceAddresses: [(name: String, url: String)] {
        configured.flatMap { name -> [(name: String, url: String)] in
            switch name {
            case .corpus: []
            case .x: xAPI.map { [(name.rawValue, $0.baseURL)] } ?? []
            case .mastodon where !mastodonFleet.isEmpty:
                mastodonFleet.map { ("\(name.rawValue) (\($0.serverName))", $0.baseURL) }
            case .mastodon: mastodon.map { [(name.rawValue, $0.baseURL)] } ?? []
            case .bluesky: [(name.rawValue, namedBluesky.serviceURL)]
            }
        }
    }

    /// Every configured source: the corpus always, the others when their settings are there.
    public var configured: [Name] {
        Name.allCases.filter { name in
            switch name {
            case .corpus: true
            case .x: xAPI != nil
            case .mastodon: mastodon != nil || !mastodonFleet.isEmpty
            case .bluesky: namedBluesky.credentials != nil
            }
        }
    }

    /// The sources a comma list names (`corpus,mastodon`), in the catalogue's order; every configured one for none.
    public func choose(_ list: String?) throws(SourceChoiceError) -> [Name] {
        if let instanceListError { throw .instanceList(instanceListError) }
        guard let list, let names = try Self.names(list) else { return configured }
        if names.contains(.x), xAPI == nil { throw .xWithoutToken(tokenFile: tokenFile) }
        return names
    }

    /// The sources a comma list names, in the catalogue's order, configured here or not (a tracked term's plan is
    /// kept for whichever server fetches it); nil for a list that names none.
    public static func names(_ list: String) throws(SourceChoiceError) -> [Name]? {
        var chosen = Set<Name>()
        for word in list.split(separator: ",").map({ $0.split(whereSeparator: \.isWhitespace).joined() })
        where !word.isEmpty {
            guard let name = Name(rawValue: word.lowercased()) else { throw .unknown(String(word)) }
            chosen.insert(name)
        }
        return chosen.isEmpty ? nil : Name.allCases.filter(chosen.contains)
    }

    /// The named sources, ready to search; `corpus` is the local corpus, opened by the caller (who may have to
    /// generate the demo first), and needed only when the corpus is named.
    public func open(
        _ names: [Name], corpus: (any PostSource)?, corpusTitle: String = "Corpus", logger: Logger
    ) -> SourceSet {
        SourceSet(
            names.compactMap { name in
                switch name {
                case .corpus: corpus.map { NamedSource(name: name.rawValue, title: corpusTitle, source: $0) }
                case .x:
                    xAPI.map {
                        NamedSource(
                            name: name.rawValue, title: "X", source: XAPIClient(configuration: $0, logger: logger))
                    }
                case .mastodon where !mastodonFleet.isEmpty:
                    Self.fleet(mastodonFleet, logger: logger)
                case .mastodon:
                    NamedSource(
                        name: name.rawValue, title: "Mastodon (\(namedMastodon.serverName))",
                        source: MastodonClient(configuration: namedMastodon, logger: logger))
                case .bluesky:
                    NamedSource(
                        name: name.rawValue, title: "Bluesky",
                        source: BlueskyClient(configuration: namedBluesky, logger: logger))
                }
            })
    }
}

extension SourceCatalog {
    fileprivate static func fleet(_ servers: [MastodonConfiguration], logger: Logger) -> NamedSource {
        let fleet = MastodonFleet(configurations: servers, logger: logger)
        return NamedSource(name: Name.mastodon.rawValue, title: fleet.title, source: fleet)
    }
}

/// Why a list of sources cannot be searched.
public enum SourceChoiceError: Error, Sendable, Equatable, ExplainedError {
    case unknown(String)
    case xWithoutToken(tokenFile: String)
    case instanceList(InstanceListError)

    public var description: String {
        switch self {
        case .unknown(let word):
            """
            There is no source called “\(word.excerpt())”: choose \
            from \(SourceCatalog.Name.allCases.map(\.rawValue).joined(separator: ", ")).
            """
        case .xWithoutToken(let tokenFile):
            "no X API bearer token is configured: set SMASHTAG_X_BEARER_TOKEN, or write it to \(tokenFile)."
        case .instanceList(let error): error.description
        }
    }
}
