import AppStore
import ArgumentParser
import AsyncHTTPClient
import Corpus
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Posts
import SmashtagApp

/// `smashtag doctor`: what a newcomer gets wrong, checked in one go — the data directory, its disk, the database, each
/// configured source (one small search each, the cheapest call every network answers with its token), and the clock
/// against the networks' (a clock far off makes tokens and sessions look expired). One line each, with the fix;
/// exit 0 only when every check holds.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the data directory, disk space, the database, each configured source and the clock.",
        discussion: "Each check prints one line, with what to do when it fails; the exit status is 0 only when all hold"
            + "."
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    /// Less free space than this fails: the corpus, the live index and datasets' zips all grow in the data directory.
    static let leastFreeBytes: Int64 = 1 << 30
    /// A clock further off than this fails: tokens and sessions carry expiry times checked to the minute.
    static let mostClockOffset = 60.0

    func run() async throws {
        var checks: [DoctorCheck] = []
        let directory = try DataDirectory(common.dataDirectory)
        let catalog = SourceCatalog(environment: ProcessInfo.processInfo.environment, dataDirectory: directory.path)
        checks.append(Self.writable(directory))
        checks.append(Self.freeSpace(directory))
        checks.append(await database(directory))
        checks += await sources(catalog, directory)
        checks += await clock(catalog)
        for check in checks { print(check.line) }
        guard checks.allSatisfy(\.holds) else { throw ExitCode(1) }
    }

    private static func writable(_ directory: DataDirectory) -> DoctorCheck {
        let probe = directory.path + "/.doctor-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: probe, contents: Data("ok".utf8)) else {
            return .fails(
                "Data directory",
                "\(directory.path) is not writable: fix its permissions, or choose another with --data-dir.")
        }
        try? FileManager.default.removeItem(atPath: probe)
        return .holds("Data directory", "\(directory.path) is writable.")
    }

    private static func freeSpace(_ directory: DataDirectory) -> DoctorCheck {
        var stats = statvfs()
        guard statvfs(directory.path, &stats) == 0 else {
            return .fails("Disk space", "could not be read for \(directory.path).")
        }
        let free = Int64(stats.f_bavail) * Int64(stats.f_frsize)
        let text = "\(grouped(Int(free / 1_000_000))) MB free"
        guard free >= leastFreeBytes else {
            return .fails("Disk space", "only \(text) where the data lives: free some, or choose another --data-dir.")
        }
        return .holds("Disk space", "\(text) where the data lives.")
    }

    private func database(_ directory: DataDirectory) async -> DoctorCheck {
        let place = (try? store.location().postgres).map(\.description) ?? "SQLite (\(directory.appDatabase))"
        do {
            let migrated = try await store.withStore(in: directory) { try await $0.isMigrated() }
            guard migrated else {
                return .fails("Database", "\(place) has an older schema: start `smashtag serve` once to migrate it.")
            }
            return .holds("Database", "\(place) is reachable and migrated.")
        } catch {
            return .fails("Database", "\(place): \(Self.sentence(error))")
        }
    }

    /// One small search of each configured source: its token accepted, its service answering.
    private func sources(_ catalog: SourceCatalog, _ directory: DataDirectory) async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        if catalog.configured == [.corpus] {
            let howTo = "the GUIDE's “Sources” section says how to add X, Mastodon or Bluesky"
            checks.append(.holds("Sources", "only the corpus is configured; \(howTo)."))
        }
        var logger = Logger(label: "smashtag")
        logger.logLevel = .critical
        let corpus = try? await store.openCorpus(in: directory)
        let set = catalog.open(catalog.configured, corpus: corpus.map { CorpusSource(corpus: $0) }, logger: logger)
        for named in set.sources {
            do {
                let page = try await named.source.search(SearchRequest(query: "#smashtag", count: 1))
                let found = "\(page.posts.count) of #smashtag’s posts asked for one"
                checks.append(.holds(named.title, "answers (\(found))."))
            } catch {
                checks.append(.fails(named.title, SourceFailure.sentence(for: error)))
            }
        }
        return checks
    }

    /// This computer's clock against each configured network's `Date` header.
    private func clock(_ catalog: SourceCatalog) async -> [DoctorCheck] {
        guard !catalog.serviceAddresses.isEmpty else {
            return [.holds("Clock", "not compared: no network is configured, and the corpus needs no token.")]
        }
        var checks: [DoctorCheck] = []
        for (name, url) in catalog.serviceAddresses {
            let reading = await Self.offset(of: url)
            guard case .answered(let offset?) = reading else {
                let why = reading == .unanswered ? "it did not answer" : "\(url) sent no time"
                checks.append(.fails("Clock", "could not be compared with \(name)'s: \(why)."))
                continue
            }
            let seconds = Int(offset.rounded())
            let words = seconds >= 0 ? "\(seconds) s behind" : "\(-seconds) s ahead of"
            if abs(offset) > Self.mostClockOffset {
                checks.append(
                    .fails(
                        "Clock",
                        "this computer's is \(words) \(name)'s: tokens will look expired; set it right (NTP).")
                )
            } else {
                checks.append(.holds("Clock", "within \(Int(Self.mostClockOffset)) s of \(name)'s."))
            }
        }
        return checks
    }

    /// A service's clock as its answer told it: how far ahead of this computer's, in seconds (nil: no `Date`).
    private enum ClockReading: Equatable {
        case unanswered
        case answered(Double?)
    }

    private static func offset(of url: String) async -> ClockReading {
        var request = HTTPClientRequest(url: url)
        request.method = .HEAD
        let asked = Date()
        guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(10)) else {
            return .unanswered
        }
        guard let header = response.headers.first(name: "date"), let date = httpDateFormatter.date(from: header)
        else { return .answered(nil) }
        let now = Date()
        return .answered(date.timeIntervalSince(asked.addingTimeInterval(now.timeIntervalSince(asked) / 2)))
    }

    private static let httpDateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()

    private static func sentence(_ error: any Error) -> String {
        (error as? CommandFailure)?.description ?? (error as? any ExplainedError)?.description
            ?? "it answered with an error."
    }
}

/// One line of `doctor`: what was checked, whether it holds, and the sentence (with the fix when it does not).
struct DoctorCheck {
    let holds: Bool
    let subject: String
    let sentence: String

    static func holds(_ subject: String, _ sentence: String) -> DoctorCheck {
        DoctorCheck(holds: true, subject: subject, sentence: sentence)
    }

    static func fails(_ subject: String, _ sentence: String) -> DoctorCheck {
        DoctorCheck(holds: false, subject: subject, sentence: sentence)
    }

    /// A source's sentence already starts with its name ("Mastodon (mastodon.social): …"): said once.
    var line: String {
        "\(holds ? "ok  " : "FAIL") " + (sentence.hasPrefix(subject) ? sentence : "\(subject): \(sentence)")
    }
}
