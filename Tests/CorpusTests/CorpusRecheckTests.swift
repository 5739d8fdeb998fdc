import Foundation
import Posts
import TestSupport
import Testing

@testable import Corpus

/// What `smashtag corpus recheck` asks of a corpus, on both: each network's posts in key order, those a recheck found
/// published within the interval left out, and which of a batch were — X posts by their id, others by network and id.
struct CorpusRecheckTests {
    @Test(arguments: TestCorpus.available) func postsFoundPublishedAreNotCandidatesUntilTheIntervalPasses(
        in store: TestCorpus
    ) async throws {
        let corpus = try await store.open()
        let created = Date(timeIntervalSince1970: 1_780_000_000)
        func post(_ network: Network, _ id: String, _ seconds: Double) -> Post {
            Post(
                network: network, id: id, created: created.addingTimeInterval(seconds),
                author: Author(handle: "checker@example.social", name: "Checker"), text: "checked \(id)")
        }
        let x = post(.twitter, "1900000000000000777", 0)
        let mastodon = [post(.mastodon, "7", 1), post(.mastodon, "8", 2), post(.mastodon, "9", 3)]
        _ = try await corpus.add([x] + mastodon)
        func candidates(_ network: Network, before: Int64) async throws -> [PostKey] {
            try await corpus.recheckCandidates(network, after: 0, checkedBefore: before, limit: 10).map(\.post)
        }
        #expect(try await candidates(.mastodon, before: 1) == mastodon.map(\.key), "in key order, by time")
        #expect(try await candidates(.twitter, before: 1) == [x.key])
        let page = try await corpus.recheckCandidates(.mastodon, after: 0, checkedBefore: 1, limit: 2)
        #expect(try await candidates(.mastodon, before: 1).dropFirst(2).first == mastodon[2].key)
        #expect(
            try await corpus.recheckCandidates(.mastodon, after: page.last!.key, checkedBefore: 1, limit: 2).map(\.post)
                == [mastodon[2].key])

        let unknown = PostKey(network: .mastodon, id: "404")
        try await corpus.markChecked([x.key, mastodon[1].key, unknown], at: 5_000)
        #expect(
            try await corpus.checked([x.key, mastodon[0].key, mastodon[1].key, unknown], since: 4_000) == [
                x.key, mastodon[1].key,
            ])
        #expect(try await corpus.checked([x.key], since: 6_000).isEmpty, "checked before then")
        #expect(try await candidates(.mastodon, before: 4_000) == [mastodon[0].key, mastodon[2].key])
        #expect(try await candidates(.twitter, before: 4_000).isEmpty)
        #expect(try await candidates(.mastodon, before: 6_000).count == 3, "the interval passed: asked again")
    }
}
