import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Smashtag
import SmashtagWeb

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

    @OptionGroup var common: CommonOptions

    var dataDirectory: String { directory.path }
    var logLevel: Logger.Level { Logger.Level(rawValue: logLevelName) ?? .info }
    var catalog: SourceCatalog { SourceCatalog(environment: ProcessInfo.processInfo.environment, dataDirectory: directory.path) }
    var sourceNames: [SourceCatalog.Name] { (try? catalog.choose(common.source)) ?? catalog.configured }

    private var directory: DataDirectory { (try? DataDirectory(common.dataDirectory)) ?? .current }

    func validate() throws {
        guard Logger.Level(rawValue: logLevelName) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.") }
        do { _ = try catalog.choose(common.source) } catch { throw ValidationError(error.description) }
    }

    func serverStarted(at url: String) {
        print("Smashtag is running at \(url) — open it in a browser; Ctrl-C stops it.")
        fflush(nil)
    }

    func run() async throws {
        _ = try DataDirectory(common.dataDirectory)
        let app = try await buildApplication(self)
        try await app.runService()
    }
}
