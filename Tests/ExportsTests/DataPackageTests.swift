import AppStore
import Foundation
import Posts
import Testing

@testable import Exports

/// A dataset's `datapackage.json`: every file it writes named with fields that match its header, and how it was
/// collected. (`Tests/browser/test_datasets.py` has frictionless read real exports against it.)
struct DataPackageTests {
    private static let made = Date(timeIntervalSince1970: 1_800_000_000)

    private static func posts() -> [CountedPost] {
        let mastodon = Post(
            network: .mastodon, id: "9", created: made.addingTimeInterval(-60),
            author: Author(handle: "ana@home.social", name: "Ana"), text: "hi", url: "https://Home.Social/@ana/9")
        let unindexed = Post(
            network: .mastodon, id: "10", created: made, author: Author(handle: "", name: ""), text: "",
            notIndexable: true)
        return [
            CountedPost(post: DatasetTests.full, counted: made.addingTimeInterval(-30)),
            CountedPost(post: unindexed, counted: made.addingTimeInterval(-20)),
            CountedPost(post: mastodon, counted: made.addingTimeInterval(-10)),
        ]
    }

    private static func dataset(
        _ window: TimeWindow = .all, tables: TermTables? = nil, demoSeed: UInt64? = nil
    ) -> Dataset<AsyncStream<[CountedPost]>> {
        let batches = AsyncStream { continuation in
            continuation.yield(posts())
            continuation.finish()
        }
        let provenance = Provenance(
            subject: .term("#Swift"), window: window, made: made, pseudonymised: false, demoSeed: demoSeed)
        return Dataset(batches: batches, tables: tables, pseudonymiser: nil, provenance: provenance)
    }

    private static func json(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private static func fields(_ resource: [String: Any]) -> [String] {
        ((resource["schema"] as? [String: Any])?["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            ?? []
    }

    @Test func everyTableIsDescribedWithTheFieldsItsHeaderNames() async throws {
        let folder = NSTemporaryDirectory() + "package-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tables = TermTables(
            popularity: PopularityTable(term: "#Swift", sections: []),
            network: MentionNetwork(term: "#Swift", options: NetworkOptions(), nodes: [], edges: []))
        #expect(try await Self.dataset(tables: tables).writeFolder(at: folder, replacing: false) == 2)
        let package = try Self.json(folder + "/datapackage.json")
        let resources = try #require(package["resources"] as? [[String: Any]])
        #expect(
            resources.compactMap { $0["name"] as? String } == [
                "posts", "mentions", "media", "popularity", "network", "servers",
            ])
        for resource in resources {
            let path = try #require(resource["path"] as? String)
            let text = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
            let header = text.components(separatedBy: "\r\n")[0]
            #expect(header.split(separator: ",").map(String.init) == Self.fields(resource), "\(path)")
        }
        let keys = try #require(resources[1]["schema"] as? [String: Any])["foreignKeys"] as? [[String: Any]]
        #expect((keys?.first?["reference"] as? [String: Any])?["resource"] as? String == "posts")
        #expect(package["name"] as? String == "posts-swift-all")
    }

    @Test func theCollectionSaysWhatWasAskedWhenAndFromWhere() async throws {
        let folder = NSTemporaryDirectory() + "package-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await Self.dataset(.week, demoSeed: 7).writeFolder(at: folder, replacing: false)
        let collection = try #require(try Self.json(folder + "/datapackage.json")["collection"] as? [String: Any])
        #expect(collection["term"] as? String == "#Swift" && collection["window"] as? String == "7d")
        #expect(collection["windowStart"] as? String == "2027-01-08T08:00:00Z")
        #expect(collection["windowEnd"] as? String == "2027-01-15T08:00:00Z")
        #expect(collection["posts"] as? Int == 2, "the post whose author has not opted in to search is left out")
        #expect(collection["postsWithheld"] as? Int == 1)
        #expect(collection["postsByNetwork"] as? [String: Int] == ["twitter": 1, "mastodon": 1])
        #expect(collection["postsByHost"] as? [String: Int] == ["x.com": 1, "home.social": 1])
        #expect(collection["firstCounted"] as? String == "2027-01-15T07:59:30Z")
        #expect(collection["lastCounted"] as? String == "2027-01-15T07:59:50Z")
        #expect((collection["corpus"] as? String)?.contains("demo corpus (seed 7)") == true)
        #expect(collection["pseudonymised"] as? Bool == false)
        #expect(collection["smashtagVersion"] as? String == Provenance.smashtagVersion)
    }

    @Test func anNDJSONFileHasItsDescriptionBesideItAndBothAreRefusedWhenThere() async throws {
        let folder = NSTemporaryDirectory() + "package-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(DataPackage.sidecar(of: folder + "/a.ndjson") == folder + "/a.datapackage.json")
        #expect(DataPackage.sidecar(of: "b.JSONL") == "b.datapackage.json")
        #expect(DataPackage.sidecar(of: "c") == "c.datapackage.json")
        #expect(try await Self.dataset().writeNDJSON(at: folder + "/a.ndjson", replacing: false) == 2)
        let resource = try #require(
            (try Self.json(folder + "/a.datapackage.json")["resources"] as? [[String: Any]])?.first)
        #expect(resource["path"] as? String == "a.ndjson" && resource["format"] as? String == "ndjson")
        #expect(Self.fields(resource) == PostLineFields.all.map(\.name))
        try FileManager.default.removeItem(atPath: folder + "/a.ndjson")
        await #expect(throws: DatasetError.exists(folder + "/a.datapackage.json")) {
            try await Self.dataset().writeNDJSON(at: folder + "/a.ndjson", replacing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.ndjson"), "nothing written when refused")
    }
}
