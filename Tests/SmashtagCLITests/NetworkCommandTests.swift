import Foundation
import Testing

/// `smashtag network TERM --kind replies|quotes|reposts`: the conversation networks of a search of the demo corpus,
/// whose posts reply and repost.
@Suite struct NetworkCommandTests {
    @Test func aConversationNetworkIsDirectedInEachFormat() async throws {
        let directory = try SmashtagRun.temporaryDirectory()
        let search = try await SmashtagRun.run(["search", "#swift", "--count", "100", "--data-dir", directory])
        #expect(search.status == 0, "\(search.stderr)")
        let network = { (arguments: [String]) in
            try await SmashtagRun.run(["network", "#swift"] + arguments + ["--data-dir", directory])
        }
        let json = try await network(["--kind", "replies"])
        #expect(json.status == 0 && json.stdout.contains(#""kind":"replies""#), "\(json.stderr)")
        let csv = try await network(["--kind", "reposts", "--format", "csv"])
        let rows = csv.stdout.split(separator: "\r\n")
        #expect(rows.first == "source,target,kind,weight" && rows.count > 1, "\(csv.stdout)")
        #expect(rows.dropFirst().allSatisfy { $0.contains(",repost,") })
        let gexf = try await network(["--kind", "replies", "--format", "gexf"])
        #expect(gexf.stdout.contains(#"<graph defaultedgetype="directed""#))
        let mentions = try await network(["--format", "gexf"])
        #expect(mentions.stdout.contains(#"<graph defaultedgetype="undirected""#), "co-mentions as before")

        let bad = try await network(["--kind", "likes"])
        #expect(bad.status != 0 && bad.stderr.contains("likes"), "\(bad.stderr)")
        let timed = try await network(["--kind", "quotes", "--format", "gexf", "--by", "day"])
        #expect(timed.status != 0 && timed.stderr.contains("--kind mentions"), "\(timed.stderr)")
    }
}
