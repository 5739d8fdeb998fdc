import Bluesky
import Foundation
import GRDB
import LiveIndex
import Logging
import Posts
import StubBluesky
import StubServer
import TestSupport
import Testing

@testable import Corpus

/// Authors the live index stored by DID, resolved against a stand-in AppView: shown by handle and name, found by
/// `from:handle` (and only by the current one after a handle changes), 25 per request; an unknown account stays a
/// DID, a failing directory is retried, and a deleted post leaves nothing in the search index.
struct ProfileResolverTests {
    static func did(_ number: Int) -> String { "did:plc:author\(number)" }

    /// A post by `did`, tagged, made `number` seconds after a fixed moment.
    static func post(_ number: Int, by did: String) -> Post {
        let text = "resolving post \(number) #resolve"
        let tag = Mention(
            kind: .hashtag, keyword: "#resolve", range: (text.unicodeScalars.count - 8)..<text.unicodeScalars.count)
        return Post(
            network: .bluesky, id: "at://\(did)/app.bsky.feed.post/r\(number)",
            created: Date(timeIntervalSince1970: 1_732_300_000 + Double(number)),
            author: Author(handle: did, name: did), text: text, mentions: [tag],
            url: "https://bsky.app/profile/\(did)/post/r\(number)")
    }

    private static var quiet: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    private func resolver(_ corpus: any LiveIndexCorpus, port: Int) -> ProfileResolver {
        ProfileResolver(
            corpus: corpus, directory: ProfileDirectory(appView: "http://127.0.0.1:\(port)"), logger: Self.quiet)
    }

    private func found(_ query: String, in corpus: any PostCorpus) async throws -> [String] {
        try await corpus.search(SearchQuery(parsing: query), .newest, count: 100).posts.map(\.id).sorted()
    }

    @Test(arguments: TestCorpus.available) func aResolvedAuthorIsShownByHandleAndFoundByFrom(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.apply([.create(Self.post(1, by: Self.did(1)))], cursor: ("c", "1"))
        #expect(try await found("resolving", in: corpus).count == 1, "searchable before its author resolves")
        try await StubBluesky.run { stub, port in
            stub.serveProfiles([Self.did(1): "alice.example.com"])
            let resolved = try await resolver(corpus, port: port).resolvePending()
            #expect(resolved == 1)
        }
        let ids = try await found("from:alice.example.com", in: corpus)
        #expect(ids == [Self.post(1, by: Self.did(1)).id])
        let post = try #require(try await corpus.post(id: ids[0]))
        #expect(
            post.author
                == Author(
                    handle: "alice.example.com", name: "Name of alice.example.com",
                    profileImageURL: "https://cdn.bsky.app/img/avatar/plain/\(Self.did(1))/bafkavatar@jpeg"))
        // A later post by a resolved author is found by handle from its own commit, and keeps the resolved name.
        _ = try await corpus.apply([.create(Self.post(2, by: Self.did(1)))], cursor: ("c", "2"))
        #expect(try await found("from:alice.example.com", in: corpus).count == 2)
        #expect(try await corpus.post(id: Self.post(2, by: Self.did(1)).id)?.author.name == "Name of alice.example.com")
        #expect(try await corpus.pendingAuthors(limit: 25).isEmpty)
    }

    @Test(arguments: TestCorpus.available) func anIdentityEventResolvesAgainAndMovesFromToTheNewHandle(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.apply([.create(Self.post(1, by: Self.did(1)))], cursor: ("c", "1"))
        try await StubBluesky.run { stub, port in
            stub.serveProfiles([Self.did(1): "old.example.com"])
            try await resolver(corpus, port: port).resolvePending()
            _ = try await corpus.apply([.identity(Self.did(1))], cursor: ("c", "2"))
            #expect(try await corpus.pendingAuthors(limit: 25) == [Self.did(1)])
            stub.serveProfiles([Self.did(1): "new.example.com"])
            try await resolver(corpus, port: port).resolvePending()
        }
        #expect(try await found("from:new.example.com", in: corpus).count == 1)
        #expect(try await found("from:old.example.com", in: corpus).isEmpty)
    }

    /// The live index's posts carry no labels: an author's `!no-unauthenticated` comes from their resolved profile,
    /// and a post that says so (a search's post view, imported) marks the rest of theirs too, until a profile
    /// without it is resolved.
    @Test(arguments: TestCorpus.available) func anAuthorWhoAsksForSignInIsShownToVisitorsByNoPost(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.apply(
            [.create(Self.post(1, by: Self.did(1))), .create(Self.post(2, by: Self.did(2)))], cursor: ("c", "1"))
        func asking(_ number: Int, by did: Int) async throws -> Bool? {
            try await corpus.post(id: Self.post(number, by: Self.did(did)).id)?.signedInOnly
        }
        try await StubBluesky.run { stub, port in
            stub.serveProfiles([Self.did(1): "private.example.com", Self.did(2): "open.example.com"])
            stub.askForSignIn([Self.did(1)])
            try await resolver(corpus, port: port).resolvePending()
            #expect(try await asking(1, by: 1) == true)
            #expect(try await asking(2, by: 2) == false)
            #expect(try await corpus.post(id: Self.post(1, by: Self.did(1)).id)?.forVisitors == nil)
            // A post by the other author that says so (as a search's view does) marks their live posts too.
            let viewed = Post(
                network: .bluesky, id: "at://\(Self.did(2))/app.bsky.feed.post/viewed", created: Date(),
                author: Author(handle: "open.example.com", name: "Open"), text: "a view", signedInOnly: true)
            _ = try await corpus.add([viewed])
            #expect(try await corpus.post(id: viewed.id)?.signedInOnly == true)
            // Their profile, resolved again without the label, takes it back from every post of theirs.
            stub.askForSignIn([])
            _ = try await corpus.apply([.identity(Self.did(1))], cursor: ("c", "2"))
            try await resolver(corpus, port: port).resolvePending()
            #expect(try await asking(1, by: 1) == false)
        }
    }

    @Test(arguments: TestCorpus.available) func fortyAuthorsTakeTwoRequestsAndTheUnknownStayDIDs(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.apply((1...40).map { .create(Self.post($0, by: Self.did($0))) }, cursor: ("c", "1"))
        let requests = try await StubBluesky.run { stub, port in
            var handles = Dictionary(uniqueKeysWithValues: (1...39).map { (Self.did($0), "user\($0).example.com") })
            handles[Self.did(38)] = "handle.invalid"
            stub.serveProfiles(handles)
            let resolved = try await resolver(corpus, port: port).resolvePending()
            #expect(resolved == 39)
            return stub.requests
        }
        #expect(requests.map { $0.components(separatedBy: "actors=").count - 1 } == [25, 15])
        #expect(try await corpus.pendingAuthors(limit: 25).isEmpty, "the unknown account is not asked for again")
        #expect(try await corpus.post(id: Self.post(40, by: Self.did(40)).id)?.author.handle == Self.did(40))
        #expect(try await found("from:user39.example.com", in: corpus).count == 1)
        let invalid = try await corpus.post(id: Self.post(38, by: Self.did(38)).id)?.author
        #expect(
            invalid?.handle == Self.did(38) && invalid?.name == "Name of handle.invalid",
            "no handle to show or search by")
    }

    @Test(arguments: TestCorpus.available) func aFailingDirectoryIsRetriedAndResolvesOnceItRecovers(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        _ = try await corpus.apply([.create(Self.post(1, by: Self.did(1)))], cursor: ("c", "1"))
        try await StubBluesky.run { stub, port in
            stub.serveProfiles([Self.did(1): "alice.example.com"])
            stub.fail(with: .init(status: 502, body: "<html>Bad Gateway</html>"))
            let resolver = ProfileResolver(
                corpus: corpus, directory: ProfileDirectory(appView: "http://127.0.0.1:\(port)"), logger: Self.quiet,
                idle: .milliseconds(50))
            await #expect(throws: BlueskyError.self) { try await resolver.resolvePending() }
            let running = Task { await resolver.run() }
            try await Task.sleep(for: .milliseconds(300))
            stub.fail(with: nil)
            for _ in 0..<300 {
                if try await corpus.pendingAuthors(limit: 1).isEmpty { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            running.cancel()
            await running.value
        }
        #expect(try await found("from:alice.example.com", in: corpus).count == 1)
    }

    @Test func deletingResolvedPostsLeavesNothingInTheSearchIndex() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let corpus = try await SQLiteCorpus.open(at: path)
        let posts = (1...3).map { Self.post($0, by: Self.did(1)) }
        _ = try await corpus.apply(posts.prefix(2).map { .create($0) }, cursor: ("c", "1"))
        try await StubBluesky.run { stub, port in
            stub.serveProfiles([Self.did(1): "alice.example.com"])
            try await resolver(corpus, port: port).resolvePending()
        }
        _ = try await corpus.apply([.create(posts[2])], cursor: ("c", "2"))
        _ = try await corpus.apply(posts.map { .delete($0.id) }, cursor: ("c", "3"))
        let left = try await DatabaseQueue(path: path).read { db in
            try [IndexEntry.from(Self.did(1)), IndexEntry.from("alice.example.com")].map { key in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM searchIndex WHERE searchIndex MATCH ?",
                    arguments: [SearchTokens.termQuery(key)])
            }
        }
        #expect(left == [0, 0])
        #expect(try await found("resolving", in: corpus).isEmpty)
    }
}
