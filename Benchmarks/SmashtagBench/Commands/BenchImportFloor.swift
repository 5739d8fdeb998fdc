import ArgumentParser
import Corpus
import FileImport
import Foundation
import GRDB
import Posts

/// SQLite's floor for an import (issue 39): the same rows into the same schema by the plainest program — the file's
/// posts made into rows first (ids for authors given from a dictionary, no look-ups), then each batch inserted with
/// prepared statements in one transaction, table by table, nothing else. Only
/// the inserts are timed as the floor; reading the file and making the rows are timed apart, as what an import does
/// besides.
struct BenchImportFloor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-floor",
        abstract: "Insert a file's posts as ready-made rows into a new corpus file: SQLite's floor for an import.")

    @Argument(help: "A file of posts, as `smashtag import` reads.")
    var file: String

    @Option(help: "The new corpus file to write (must not exist).")
    var database: String

    @Option(help: "Posts per transaction (the import's).")
    var batchSize = 2_000

    @Option(help: "SQLite's page cache, MB (0: SQLite's default).")
    var cacheMB = 0

    func run() async throws {
        guard !FileManager.default.fileExists(atPath: database) else {
            throw BenchFailure("\(database) exists: the floor writes a new file.")
        }
        // The corpus's own migrations make the schema: the same tables and indexes.
        _ = try await SQLiteCorpus.open(at: database)
        let floor = try FloorDatabase(path: database, cacheMB: cacheMB)
        var reader = try PostFileReader(path: file)
        var ids = FloorIDs()
        var times = FloorTimes()
        let clock = ContinuousClock()
        while true {
            var started = clock.now
            let posts = Self.batch(of: batchSize, from: &reader)
            times.read += clock.now - started
            guard !posts.isEmpty else { break }
            started = clock.now
            let rows = FloorBatch(posts.map(PostRecord.init), ids: &ids)
            times.rows += clock.now - started
            started = clock.now
            try floor.insert(rows)
            times.insert += clock.now - started
            times.posts += posts.count
        }
        report(
            FloorResult(
                posts: times.posts, insertSeconds: times.insert.seconds,
                floorPostsPerSecond: Double(times.posts) / times.insert.seconds,
                readSeconds: times.read.seconds, rowsSeconds: times.rows.seconds))
    }

    private static func batch(of size: Int, from reader: inout PostFileReader) -> [Post] {
        var posts: [Post] = []
        while posts.count < size, let event = reader.next() {
            if case .post(let post) = event { posts.append(post) }
        }
        return posts
    }
}

private struct FloorTimes {
    var read = Duration.zero
    var rows = Duration.zero
    var insert = Duration.zero
    var posts = 0
}

private struct FloorResult: Encodable {
    let posts: Int
    let insertSeconds: Double
    let floorPostsPerSecond: Double
    /// Reading and decoding the file, on one thread.
    let readSeconds: Double
    /// Making the records (words cut, terms named, the search index's text) and the rows.
    let rowsSeconds: Double
}

/// The ids the floor gives authors, as a program that knew its data would: from a dictionary.
private struct FloorIDs {
    var authors: [String: Int64] = [:]

    /// The id of `key`, and whether it is new.
    static func id(of key: String, in ids: inout [String: Int64]) -> (Int64, isNew: Bool) {
        if let id = ids[key] { return (id, false) }
        let id = Int64(ids.count + 1)
        ids[key] = id
        return (id, true)
    }
}

/// One transaction's rows, every value made.
private struct FloorBatch {
    var authors: [[RawValue]] = []
    var posts: [[RawValue]] = []
    var mentions: [[RawValue]] = []
    var media: [[RawValue]] = []
    var searchIndex: [[RawValue]] = []

    init(_ records: [PostRecord], ids: inout FloorIDs) {
        var indexed: [(key: Int64, text: String)] = []
        for record in records {
            guard let key = record.ownKey else { continue }
            let author = self.author(record.post.author, &ids)
            let reposter = record.post.repostedBy.map { self.author($0, &ids) }
            posts.append(record.postRow(key: key, author: author, reposter: reposter))
            mentions += record.mentionRows(key: key)
            media += record.mediaRows(key: key)
            indexed.append((key, record.searchText))
        }
        // In the rows' order, as the corpus writes them (`SearchIndex.inRowOrder`).
        searchIndex = indexed.sorted { $0.key > $1.key }.map { [.integer($0.key), .text($0.text)] }
    }

    private mutating func author(_ author: Author, _ ids: inout FloorIDs) -> Int64 {
        let (id, isNew) = FloorIDs.id(of: author.handle.lowercased(), in: &ids.authors)
        if isNew {
            authors.append([.integer(id), .text(author.handle), .text(author.name), RawValue(author.profileImageURL)])
        }
        return id
    }
}

/// The corpus file on a plain connection: WAL and `synchronous = NORMAL` as the corpus has them, SQLite's defaults
/// for everything else (no foreign-key checks).
private struct FloorDatabase {
    let queue: DatabaseQueue

    init(path: String, cacheMB: Int) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            if cacheMB > 0 { try db.execute(sql: "PRAGMA cache_size = \(-cacheMB * 1024)") }
        }
    }

    func insert(_ batch: FloorBatch) throws {
        try queue.inTransaction { db in
            for (sql, rows) in [
                ("INSERT INTO author(id, handle, name, profileImageURL) VALUES (?, ?, ?, ?)", batch.authors),
                (CorpusInserts.post, batch.posts), (CorpusInserts.mention, batch.mentions),
                (CorpusInserts.media, batch.media), (CorpusInserts.searchIndex, batch.searchIndex),
            ] {
                let statement = try RawStatement(db, sql)
                for row in rows { try statement.run(row) }
            }
            return .commit
        }
    }
}
