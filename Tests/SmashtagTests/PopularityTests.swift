import Foundation
import Smashtag
import Synchronization
import Testing
import Posts
import Twitter

/// A source that answers with the pages a test scripts, whatever the request: it stands for the X API or the
/// corpus at the boundary, so the tests decide exactly which tweets a fetch returns.
final class ScriptedSource: PostSource, Sendable {
    private let pages = Mutex<[[Post]]>([])

    func enqueue(_ tweets: [Post]...) { pages.withLock { $0 += tweets } }

    func search(_ request: SearchRequest) async throws -> SearchPage {
        let tweets = pages.withLock { $0.isEmpty ? [] : $0.removeFirst() }
        return SearchPage(tweets: tweets, newer: request.newer(after: tweets), older: request.older(after: tweets, hasMore: true))
    }
}

/// A tweet whose text is its mentions.
func tweet(_ id: Int, _ text: String) -> Post {
    var mentions: [Mention] = []
    var offset = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
        let count = word.unicodeScalars.count
        if word.hasPrefix("#") || word.hasPrefix("@") {
            mentions.append(Mention(kind: word.hasPrefix("#") ? .hashtag : .user, keyword: String(word), range: offset..<offset + count))
        }
        offset += count + 1
    }
    return Post(id: String(id), created: Date(timeIntervalSince1970: Double(id)), user: Author(screenName: "poster", name: "Poster"), text: text, mentions: mentions)
}

struct PopularityTests {
    let database: AppDatabase
    let source = ScriptedSource()
    var sessions: OneSourceSessions { OneSourceSessions(database: database, source: source) }
    var popularity: Popularity { Popularity(database: database) }

    init() throws {
        database = try AppDatabase.inMemory()
    }

    private func table(_ term: String) async throws -> [String: [String]] {
        let table = try await popularity.table(for: term)
        return Dictionary(uniqueKeysWithValues: table.sections.map { ($0.title, $0.rows.map { "\($0.mention) \($0.count)" }) })
    }

    @Test func mentionsNamedByMoreThanOneTweetAreCountedInTwoSections() async throws {
        source.enqueue([tweet(1, "#a #b @c"), tweet(2, "#a @c @d"), tweet(3, "#a #b")])
        _ = try await sessions.fetch("T", at: .newest)
        #expect(try await table("T") == ["Hashtags": ["#a 3", "#b 2"], "Users": ["@c 2"]])
    }

    @Test func mentionsAreOneCaseInsensitivelyAndATweetNamingOneTwiceCountsOnce() async throws {
        // Newest first, as sources give them: the newest spelling is the one first seen.
        source.enqueue([tweet(2, "#Swift #swift #SWIFT @Nasa"), tweet(1, "#swift @NASA")])
        _ = try await sessions.fetch("T", at: .newest)
        #expect(try await table("T") == ["Hashtags": ["#Swift 2"], "Users": ["@Nasa 2"]])
    }

    @Test func fetchingATweetAgainNeverChangesACount() async throws {
        source.enqueue([tweet(2, "#a"), tweet(1, "#a")], [tweet(3, "#a"), tweet(2, "#a")], [tweet(2, "#a"), tweet(1, "#a"), tweet(0, "#a")])
        _ = try await sessions.fetch("T", at: .newest)
        _ = try await sessions.fetch("T", at: .newer(than: "0"))
        _ = try await sessions.fetch("T", at: .older(than: "9", token: nil))
        #expect(try await table("T") == ["Hashtags": ["#a 4"], "Users": []])
    }

    @Test func aTweetFetchedUnderTwoTermsCountsOnceUnderEach() async throws {
        source.enqueue([tweet(1, "#a"), tweet(2, "#a")], [tweet(1, "#a"), tweet(2, "#a")])
        _ = try await sessions.fetch("T", at: .newest)
        _ = try await sessions.fetch("U", at: .newest)
        #expect(try await table("T") == ["Hashtags": ["#a 2"], "Users": []])
        #expect(try await table("U") == ["Hashtags": ["#a 2"], "Users": []])
    }

    @Test func termsAreTheSameCaseInsensitivelyAfterTrimmingAndCollapsingSpaces() async throws {
        source.enqueue([tweet(1, "#a")], [tweet(2, "#a")])
        _ = try await sessions.fetch("swift  OR rust", at: .newest)
        _ = try await sessions.fetch("  SWIFT or RUST ", at: .newest)
        #expect(try await table("Swift Or Rust") == ["Hashtags": ["#a 2"], "Users": []])
        #expect(try await Recents(database: database).terms() == ["SWIFT or RUST"])
    }

    @Test func tiesAreAlphabeticalCaseInsensitively() async throws {
        source.enqueue([tweet(1, "#b #A #c @z @Y"), tweet(2, "#b #A #c @z @Y"), tweet(3, "#c")])
        _ = try await sessions.fetch("T", at: .newest)
        #expect(try await table("T") == ["Hashtags": ["#c 3", "#A 2", "#b 2"], "Users": ["@Y 2", "@z 2"]])
    }

    @Test func recentsAreMostRecentFirstUniqueWithTheNewestSpelling() async throws {
        for term in ["#stanford", "#swift", "#Stanford"] { _ = try await sessions.fetch(term, at: .newest) }
        #expect(try await Recents(database: database).terms() == ["#Stanford", "#swift"])
    }

    @Test func deletingATermTakesItsCountsAndTheTweetsOnlyItCounted() async throws {
        source.enqueue([tweet(1, "#a"), tweet(2, "#a")], [tweet(2, "#a"), tweet(3, "#a")])
        _ = try await sessions.fetch("T", at: .newest)
        _ = try await sessions.fetch("U", at: .newest)
        #expect(try await Recents(database: database).delete("t"))
        #expect(try await table("T") == ["Hashtags": [], "Users": []])
        #expect(try await table("U") == ["Hashtags": ["#a 2"], "Users": []])
        #expect(try await database.storedPostIDs() == ["2", "3"])
        #expect(try await !Recents(database: database).delete("t"))
    }

    @Test func theHundredAndFirstTermPushesTheOldestOutWithItsData() async throws {
        source.enqueue([tweet(1, "#a"), tweet(2, "#a")])
        for number in 0...100 { _ = try await sessions.fetch("term \(number)", at: .newest) }
        let terms = try await Recents(database: database).terms()
        #expect(terms.count == 100 && terms.first == "term 100" && terms.last == "term 1")
        #expect(try await table("term 0") == ["Hashtags": [], "Users": []])
        #expect(try await database.storedPostIDs().isEmpty)
    }
}

struct PopularityPersistenceTests {
    @Test func countsSurviveReopeningTheDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString).sqlite").path
        let source = ScriptedSource()
        source.enqueue([tweet(1, "#a @b"), tweet(2, "#a @b")])
        _ = try await OneSourceSessions(database: try AppDatabase.open(at: path), source: source).fetch("T", at: .newest)
        let reopened = try AppDatabase.open(at: path)
        let table = try await Popularity(database: reopened).table(for: "T")
        #expect(table.rows(.hashtags) == [PopularMention(mention: "#a", count: 2)])
        #expect(try await Recents(database: reopened).terms() == ["T"])
    }

    @Test func theLiveTableSeesAnotherConnectionsWrite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString).sqlite").path
        let watching = try AppDatabase.open(at: path)
        let writing = try AppDatabase.open(at: path)
        let source = ScriptedSource()
        source.enqueue([tweet(1, "#a")], [tweet(2, "#a")])
        _ = try await OneSourceSessions(database: writing, source: source).fetch("T", at: .newest)
        var updates = try Popularity(database: watching).updates(for: "T").makeAsyncIterator()
        #expect(try await updates.next()?.rows(.hashtags) == [])
        _ = try await OneSourceSessions(database: writing, source: source).fetch("T", at: .newer(than: "0"))
        #expect(try await updates.next()?.rows(.hashtags) == [PopularMention(mention: "#a", count: 2)])
    }

    @Test func theLiveTableSeesThisProcesssWriteOnAnInMemoryDatabase() async throws {
        let database = try AppDatabase.inMemory()
        let source = ScriptedSource()
        source.enqueue([tweet(1, "@x")], [tweet(2, "@x")])
        _ = try await OneSourceSessions(database: database, source: source).fetch("T", at: .newest)
        var updates = try Popularity(database: database).updates(for: "T").makeAsyncIterator()
        #expect(try await updates.next()?.rows(.users) == [])
        _ = try await OneSourceSessions(database: database, source: source).fetch("T", at: .newer(than: "0"))
        #expect(try await updates.next()?.rows(.users) == [PopularMention(mention: "@x", count: 2)])
    }
}
