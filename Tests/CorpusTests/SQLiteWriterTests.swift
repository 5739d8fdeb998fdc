import Foundation
import Posts
import TestSupport
import Testing

@testable import Corpus

/// What the SQLite writer remembers between transactions (`KnownRows`) never hides a change: another connection's
/// commit makes it start afresh, and a batch is written table by table with the same outcome per post.
struct SQLiteWriterTests {
    private func file() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("corpus.sqlite").path
    }

    private func post(_ id: Int, _ name: String) -> Post {
        Post(
            id: String(id), created: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)),
            author: Author(handle: "alice", name: name), text: "post \(id) #swift")
    }

    @Test func anAuthorRenamedByAnotherProcessIsRenamedBackByTheNextPostNamingThemSo() async throws {
        let path = try file()
        let importer = try await SQLiteCorpus.open(at: path)
        let other = try await SQLiteCorpus.open(at: path)
        _ = try await importer.add([post(1, "Alice")])
        _ = try await other.add([post(2, "Alicia")])
        _ = try await importer.add([post(3, "Alice")])
        for id in ["1", "2", "3"] {
            #expect(try await importer.post(id: id)?.author.name == "Alice", "the newest name, on post \(id)")
        }
    }

    @Test func aBatchTellsEachPostsOutcomeInOrderAndStoresARepeatOnce() async throws {
        let corpus = try SQLiteCorpus.inMemory()
        _ = try await corpus.add([post(1, "Alice")])
        let added = try await corpus.add([post(2, "Alice"), post(1, "Alice"), post(2, "Alice"), post(3, "Alice")])
        #expect(added.inserted == 2 && added.duplicates == 2)
        let page = try await corpus.search(SearchQuery(parsing: "post"), .newest, count: 10)
        #expect(page.posts.map(\.id) == ["3", "2", "1"])
    }
}
