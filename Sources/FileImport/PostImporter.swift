import Corpus
import Posts
import WireJSON

/// Imports files of posts into the corpus, in any format `PostFileReader` reads: streaming (memory flat however big
/// the file), one transaction per batch, idempotent (a post is known by its network and id), and going on past
/// malformed lines and posts. A post whose author has not opted in to search (`Post.notIndexable`) is not stored.
public struct PostImporter: Sendable {
    public let corpus: any PostCorpus
    public let batchSize: Int

    public init(corpus: any PostCorpus, batchSize: Int = 2_000) {
        self.corpus = corpus
        self.batchSize = batchSize
    }

    /// Imports one file. `report` hears every problem and note as it is found, and the running totals after each
    /// batch. Throws only when the file cannot be opened (or the database fails): everything else is reported.
    public func importFile(_ path: String, report: (ImportEvent) -> Void) async throws -> ImportTotals {
        var reader = try PostFileReader(path: path)
        var totals = ImportTotals()
        try await corpus.add(
            batches: { readBatch(&reader, into: &totals, report: report) },
            written: { added in
                totals.add(added, file: path, report: report)
                totals.bytesRead = reader.bytesRead
                report(.progress(totals))
            })
        totals.bytesRead = reader.bytesRead
        report(.progress(totals))
        return totals
    }

    private func readBatch(
        _ reader: inout PostFileReader, into totals: inout ImportTotals, report: (ImportEvent) -> Void
    ) -> [Post] {
        var batch: [Post] = []
        batch.reserveCapacity(batchSize)
        while batch.count < batchSize, let event = reader.next() {
            switch event {
            case .post(let post) where post.notIndexable: totals.withheld += 1
            case .post(let post): batch.append(post)
            case .malformed(let problem):
                totals.skipped += 1
                report(.malformed(problem))
            case .note(let note): report(.note(note))
            case .written: preconditionFailure("the importer's reader is not asked to write its posts")
            }
        }
        return batch
    }
}

/// What an import tells as it goes.
public enum ImportEvent: Sendable {
    /// Running totals, after each batch.
    case progress(ImportTotals)
    /// A line or item that was skipped, with file and line.
    case malformed(DecodingProblem)
    /// Data holding no posts (an API error body, users…), or text mended to be read: not an error.
    case note(DecodingProblem)
}

/// Counts of an import.
public struct ImportTotals: Sendable, Hashable {
    public var imported = 0
    /// Posts the corpus already had (the same network and id).
    public var duplicates = 0
    /// Malformed lines or items, and posts the corpus cannot hold.
    public var skipped = 0
    /// Posts whose authors have not opted in to search, left out.
    public var withheld = 0
    /// How much of the files was read, in bytes (a few MB ahead of the posts counted).
    public var bytesRead = 0

    public init() {}

    public var read: Int { imported + duplicates }

    mutating func add(_ added: AddedPosts, file: String, report: (ImportEvent) -> Void) {
        imported += added.inserted
        duplicates += added.duplicates
        skipped += added.rejected.count
        for reason in added.rejected { report(.malformed(DecodingProblem(file: file, message: reason))) }
    }

    public static func + (lhs: ImportTotals, rhs: ImportTotals) -> ImportTotals {
        var sum = lhs
        sum.imported += rhs.imported
        sum.duplicates += rhs.duplicates
        sum.skipped += rhs.skipped
        sum.withheld += rhs.withheld
        sum.bytesRead += rhs.bytesRead
        return sum
    }
}
