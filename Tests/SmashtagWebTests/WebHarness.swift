import AppStore
import Corpus
import DemoCorpus
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveIndex
import Logging
import PostgresSupport
import Posts
import SmashtagApp
import Team
import TestSupport

@testable import SmashtagWeb

/// What a test server needs: a data directory, any free port, a short idle timeout when a test wants one.
struct TestArguments: AppArguments {
    let host = "127.0.0.1"
    let port = 0
    let dataDirectory: String
    var catalog = SourceCatalog()
    var sourceNames: [SourceCatalog.Name] = [.corpus]
    let logLevel = Logger.Level.critical
    var idleTimeout: Duration = .seconds(15)
    var liveIndex: LiveIndexSettings?
    var database: PostgresURL?
    var isPublic = false
    /// bcrypt's cheapest cost: the tests check what is hashed, not how slowly.
    var passwords = Passwords(cost: 4)
    var recordsMetrics = true

    func serverStarted(at url: String) {}
}

/// A data directory with a small demo corpus and tweets that try to inject markup, and the site over it.
enum WebFixture {
    static let hostileTag = "xsstest"
    static let hostileID = "1900000000000000001"
    static let scriptText = "<script>alert(1)</script>"

    /// The demo's first 400 posts and the hostile ones, made once for every test of the run.
    static let corpus = CorpusTemplate { corpus in
        try await Demo.generate(into: corpus, count: 400)
        _ = try await corpus.add(hostilePosts)
    }

    /// A data directory of its own, with a copy of the shared corpus and no app database yet.
    static func dataDirectory() async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "smashtag-web-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await corpus.copy(to: DataDirectory(path: directory).corpus)
        return directory
    }

    /// Tests look at responses, not logs (a 500 is logged as an error on purpose).
    static var quietLogger: Logger {
        var logger = Logger(label: "smashtag-test")
        logger.logLevel = .critical
        return logger
    }

    static func site(in directory: String? = nil) async throws -> Site {
        let directory = if let directory { directory } else { try await dataDirectory() }
        return try await Site.open(TestArguments(dataDirectory: directory), logger: quietLogger)
    }

    /// The whole router, as the server runs it.
    static func application(in directory: String? = nil) async throws -> (some ApplicationProtocol, Site) {
        let site = try await site(in: directory)
        return (Application(router: try buildRouter(site), logger: quietLogger), site)
    }

    /// Markup, a `javascript:` link, quotes and template syntax in every field a page shows.
    static var hostilePosts: [Post] {
        let mallory = Author(
            handle: "mallory", name: "<img src=x onerror=alert(3)>", profileImageURL: "javascript:alert(4)")
        let text = "\(scriptText) \"quoted\" 'single' {{7*7}} #\(hostileTag) @mallory evil"
        func range(of word: String) -> Range<Int> {
            let start = text.unicodeScalars.distance(from: text.startIndex, to: text.range(of: word)!.lowerBound)
            return start..<start + word.unicodeScalars.count
        }
        let mentions = [
            Mention(kind: .hashtag, keyword: "#\(hostileTag)", range: range(of: "#\(hostileTag)")),
            Mention(kind: .user, keyword: "@mallory", range: range(of: "@mallory")),
            Mention(kind: .url, keyword: "evil", range: range(of: "evil"), expandedURL: "javascript:alert(2)"),
        ]
        let created = Date(timeIntervalSince1970: 1_740_830_400)
        return [
            Post(
                id: hostileID, created: created, author: mallory, text: text, mentions: mentions,
                media: [
                    MediaItem(url: "javascript:alert(5)", aspectRatio: 1.5),
                    MediaItem(url: "/demo/images/1-0-400x300.svg", aspectRatio: 4.0 / 3),
                ]),
            Post(
                id: "1900000000000000002", created: created.addingTimeInterval(60), author: mallory,
                text: "again #\(hostileTag) @mallory", mentions: TestPosts.mentions(in: "again #\(hostileTag) @mallory")
            ),
        ]
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
}

/// The headers every response must carry, whatever its status.
func hasSecurityHeaders(_ response: TestResponse) -> Bool {
    response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true
        && response.headers[.xContentTypeOptions] == "nosniff"
}
