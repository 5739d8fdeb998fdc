import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An SQLite corpus copied into another corpus (PostgreSQL's, for servers to share): every post in order-key order, a
/// batch per transaction, with how far the copy has come written in the same transaction — so a copy that is
/// interrupted or killed resumes after the last batch committed, and one run again copies nothing twice (a post is
/// known by its network and id). The demo is never mixed with real posts, either way.
public struct CorpusCopy: Sendable {
    let source: SQLiteCorpus
    let target: any PostCorpus
    let batchSize: Int

    public init(from source: SQLiteCorpus, to target: any PostCorpus, batchSize: Int = 2_000) {
        (self.source, self.target, self.batchSize) = (source, target, batchSize)
    }

    /// What a copy did.
    public struct Totals: Sendable {
        public var copied = 0
        /// Posts the target held already.
        public var present = 0
        /// Where this run started: posts an interrupted run had copied.
        public var resumedAfter = 0
        public let total: Int
    }

    /// Copies what is left; `progress` hears the totals after each batch.
    public func run(progress: (Totals) -> Void = { _ in }) async throws -> Totals {
        let mark = try await progressKey()
        var after = try await target.info(mark).flatMap { Int64($0) }
        // A copy that was interrupted resumes: what the target holds came from this source.
        if after == nil { try await refuseMixing() }
        // The notes first, so a copy of the demo interrupted at once is known as the demo all the same.
        for (key, value) in try await source.notes() where key != Self.idKey {
            guard try await target.info(key) == nil else { continue }
            try await target.setInfo(key, value)
        }
        var totals = Totals(total: try await source.postCount())
        if let after { totals.resumedAfter = try await source.postCount(upTo: after) }
        while true {
            let batch = try await source.posts(after: after, count: batchSize)
            guard let last = batch.last else { break }
            let applied = try await target.apply(batch.posts.map(StreamChange.create), cursor: (mark, String(last)))
            totals.copied += applied.inserted
            totals.present += applied.duplicates
            after = last
            progress(totals)
        }
        return totals
    }

    /// The demo's posts are made up: a corpus holding them is copied only into an empty one, and nothing is copied into
    /// one that holds them — even the demo with posts imported beside it into a database holding the demo alone.
    private func refuseMixing() async throws {
        let sourceIsDemo = try await source.info(CorpusNote.demoSeed) != nil
        let targetIsDemo = try await target.info(CorpusNote.demoSeed) != nil
        guard sourceIsDemo || targetIsDemo, try await target.postCount() > 0, try await source.postCount() > 0
        else { return }
        throw CorpusCopyError.wouldMixDemo(sourceIsDemo: sourceIsDemo)
    }

    /// Where the target keeps how far a copy from this source has come: the source's own id, made on first copy.
    private func progressKey() async throws -> String {
        if let id = try await source.info(Self.idKey) { return "copy from " + id }
        let id = UUID().uuidString.lowercased()
        try await source.setInfo(Self.idKey, id)
        return "copy from " + id
    }

    static let idKey = "corpus.id"
}

/// Why a corpus is not copied, in one sentence.
public enum CorpusCopyError: Error, ExplainedError {
    case wouldMixDemo(sourceIsDemo: Bool)

    public var description: String {
        switch self {
        case .wouldMixDemo(true):
            """
            The corpus to copy holds the generated demo, and the database holds posts already: copying could mix \
            made-up posts into real ones. A corpus with the demo is copied only into an empty database.
            """
        case .wouldMixDemo(false):
            """
            The database holds the generated demo: copying real posts into it would mix them with made-up ones. Copy \
            into an empty database.
            """
        }
    }
}
