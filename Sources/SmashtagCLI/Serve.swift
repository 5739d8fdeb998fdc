import AppStore
import ArgumentParser
import Foundation
import Hummingbird
import LiveIndex
import Logging
import PostgresSupport
import SmashtagApp
import SmashtagWeb
import Telemetry

/// `smashtag serve`: the web app.
struct Serve: AsyncParsableCommand, AppArguments {
    static let configuration = CommandConfiguration(
        abstract: "Run the web app (default http://127.0.0.1:8080/); stop it with Ctrl-C."
    )

    @Option(help: "The address to listen on (127.0.0.1: this machine only).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevelName = "info"

    @Option(
        name: .customLong("log-format"),
        help: "text (lines for people) or json (one JSON object a line, with the request id, for a log shipper).")
    var logFormat: LogFormat = .text

    @Flag(
        name: .customLong("metrics"), inversion: .prefixedNo,
        help: "Keep the metrics that /metrics serves to Prometheus (this computer and admins only).")
    var recordsMetrics = true

    @Option(
        help: ArgumentHelp(
            "Fill the corpus with a live index of this network while serving (bluesky: its public firehose).",
            valueName: "network"))
    var ingest: LiveNetwork?

    @Flag(
        help: """
            Let visitors who are not signed in read the pages and search the corpus (no live networks, no exports, \
            nothing recorded), beside the people added with `smashtag user add`.
            """)
    var `public` = false

    @Flag(
        name: .customLong("forget-counts"),
        help: "With --keep-days: take the older posts' counts back too (else they stay as aggregates).")
    var forgetsCounts = false

    @Option(
        name: .customLong("recheck-days"),
        help: ArgumentHelp(
            """
            Every hour, ask each configured network again about the kept posts not found published within this many \
            days; those it deleted leave the counts and the corpus.
            """, valueName: "days"))
    var recheckDays: Int?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy in front (nginx) whose X-Forwarded-For and X-Forwarded-Proto are believed; repeat for several.",
            valueName: "address"))
    var trustedProxies: [String] = []

    @OptionGroup var common: CommonOptions
    @OptionGroup var live: LiveIndexArguments
    @OptionGroup var store: StoreOptions

    var dataDirectory: String { directory.path }
    var logLevel: Logger.Level { Logger.Level(rawValue: logLevelName) ?? .info }
    var catalog: SourceCatalog {
        SourceCatalog(environment: ProcessInfo.processInfo.environment, dataDirectory: directory.path)
    }
    var sourceNames: [SourceCatalog.Name] { (try? catalog.choose(common.source)) ?? catalog.configured }
    var liveIndex: LiveIndexSettings? { ingest == nil ? nil : live.settings }
    var keepDays: Int? { live.keepDays }
    var database: PostgresURL? { try? store.location().postgres }
    var isPublic: Bool { `public` }

    private var directory: DataDirectory { (try? DataDirectory(common.dataDirectory)) ?? .current }

    func validate() throws {
        guard Logger.Level(rawValue: logLevelName) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        do { _ = try catalog.choose(common.source) } catch { throw ValidationError(error.description) }
        if ingest != nil, !sourceNames.contains(.corpus) {
            throw ValidationError("--ingest bluesky fills the corpus: add corpus to --source.")
        }
        if ingest == nil, live.tags != nil || live.langs != nil {
            throw ValidationError("--tags and --langs choose what a live index keeps: add --ingest bluesky.")
        }
        if let recheckDays, recheckDays < 1 {
            throw ValidationError("--recheck-days needs a whole number of days, 1 or more (it was \(recheckDays)).")
        }
        if forgetsCounts, live.keepDays == nil {
            throw ValidationError("--forget-counts says what --keep-days removes: add --keep-days.")
        }
    }

    func serverStarted(at url: String) {
        print("Smashtag is running at \(url) — open it in a browser; Ctrl-C stops it.")
        fflush(nil)
    }

    func run() async throws {
        logFormat.bootstrap()
        _ = try DataDirectory(common.dataDirectory)
        let app = try await CommandFailure.reporting { try await buildApplication(self) }
        try await app.runService()
    }
}

extension LogFormat: ExpressibleByArgument {}
