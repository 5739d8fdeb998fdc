import AppStore
import Foundation
import NIOPosix
import Posts
import WireJSON
import ZIPFoundation

/// The forms a dataset is written in.
public enum DatasetFormat: String, Sendable, CaseIterable {
    /// One post per line: Smashtag's post JSON, which loses nothing.
    case ndjson
    /// Tidy tables (`posts.csv`, `mentions.csv`, `media.csv`, and a term's `popularity.csv` and `network.csv`) in a
    /// folder or a zip.
    case csv
}

/// What a term's dataset carries beside its posts; a corpus query's has none.
public struct TermTables: Sendable {
    public let popularity: PopularityTable
    public let network: MentionNetwork

    public init(popularity: PopularityTable, network: MentionNetwork) {
        (self.popularity, self.network) = (popularity, network)
    }
}

/// A dataset: posts read a batch at a time and written as they come — NDJSON lines, or CSV tables in a folder or a
/// zip — pseudonymised when asked, so memory holds one batch however many posts there are.
public struct Dataset<Batches: AsyncSequence>: Sendable where Batches.Element == [CountedPost], Batches: Sendable {
    public let batches: Batches
    public let tables: TermTables?
    public let pseudonymiser: Pseudonymiser?

    public init(batches: Batches, tables: TermTables?, pseudonymiser: Pseudonymiser?) {
        (self.batches, self.tables, self.pseudonymiser) = (batches, tables, pseudonymiser)
    }

    /// The NDJSON lines, each batch's handed to `write` as one piece; returns how many posts were written.
    @discardableResult
    public func writeNDJSON(_ write: ([UInt8]) async throws -> Void) async throws -> Int {
        var json = JSONWriter()
        var count = 0
        for try await batch in batches {
            for post in batch { PostLine.append(shared(post), to: &json) }
            count += batch.count
            try await write(json.take())
        }
        return count
    }

    /// The NDJSON in a file at `path`, written under a temporary name and renamed into place when whole (over an
    /// existing file only with `replacing`).
    @discardableResult
    public func writeNDJSON(at path: String, replacing: Bool) async throws -> Int {
        if !replacing, FileManager.default.fileExists(atPath: path) { throw DatasetError.exists(path) }
        let file = try OutputFile(path: path)
        let count = try await writeNDJSON { try file.write($0) }
        try file.commit()
        return count
    }

    /// The CSV tables in a new folder at `path`, made under a temporary name and renamed into place when whole
    /// (over an existing folder only with `replacing`).
    @discardableResult
    public func writeFolder(at path: String, replacing: Bool) async throws -> Int {
        let folder = try DatasetFolder(path: path, replacing: replacing)
        do {
            let count = try await writeTables(into: folder.temporaryPath)
            try folder.commit()
            return count
        } catch {
            try? FileManager.default.removeItem(atPath: folder.temporaryPath)
            throw error
        }
    }

    /// The CSV tables as a zip at `path`, its entries in a folder (`folder`, else named as the zip). The tables are
    /// written to a temporary folder beside it first: a zip entry's size must be known before it is added.
    @discardableResult
    public func writeZip(at path: String, replacing: Bool, folder name: String? = nil) async throws -> Int {
        if !replacing, FileManager.default.fileExists(atPath: path) { throw DatasetError.exists(path) }
        let folder = OutputFile.temporaryName(for: path) + ".tables"
        try? FileManager.default.removeItem(atPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try DatasetFolder.make(folder)
        let count = try await writeTables(into: folder, durable: false)
        try Task.checkCancellation()
        // ZIPFoundation's reads, deflate and writes block: on NIO's thread pool, not the tasks' threads.
        let zip = DatasetZip(path: path)
        let name = name ?? Self.zipFolderName(path)
        try await NIOThreadPool.singleton.runIfActive { try zip.write(from: folder, as: name) }
        return count
    }

    private func writeTables(into folder: String, durable: Bool = true) async throws -> Int {
        let files = try PostTable.allCases.map { table in
            let file = try OutputFile(path: folder + "/" + table.fileName, durable: durable)
            try file.write(CSV.row(table.header))
            return (table, file)
        }
        var count = 0
        for try await batch in batches {
            let posts = batch.map(shared)
            for (table, file) in files { try file.write(posts.map(table.rows).joined()) }
            count += batch.count
        }
        for (_, file) in files { try file.commit() }
        if let tables { try write(tables, into: folder, durable: durable) }
        return count
    }

    private func write(_ tables: TermTables, into folder: String, durable: Bool) throws {
        let naming = pseudonymiser.map { pseudonymiser in { pseudonymiser.mention($0) } } ?? { $0 }
        let popularity = try OutputFile(path: folder + "/popularity.csv", durable: durable)
        try popularity.write(PopularityFile.csv(tables.popularity, naming: naming))
        try popularity.commit()
        let network = try OutputFile(path: folder + "/network.csv", durable: durable)
        try network.write(NetworkFile.csv(tables.network, naming: naming))
        try network.commit()
    }

    /// The post as it is shared: pseudonymised when asked.
    private func shared(_ post: CountedPost) -> CountedPost {
        guard let pseudonymiser else { return post }
        return CountedPost(post: pseudonymiser.apply(to: post.post), counted: post.counted)
    }

    private static func zipFolderName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.lowercased().hasSuffix(".zip") ? String(name.dropLast(4)) : name
    }
}

/// The names datasets are saved under.
public enum DatasetName {
    /// `posts-swift-7d`: a folder's name, or a file's before its extension.
    public static func of(_ term: String, window: TimeWindow) -> String {
        "posts-\(FileNames.slug(term))-\(window)"
    }
}

/// A dataset's folder, made under a temporary name beside its final one and renamed into place when whole.
struct DatasetFolder {
    let path: String
    let temporaryPath: String
    let replacing: Bool

    init(path: String, replacing: Bool) throws(DatasetError) {
        if !replacing, FileManager.default.fileExists(atPath: path) { throw .exists(path) }
        (self.path, self.replacing) = (path, replacing)
        temporaryPath = OutputFile.temporaryName(for: path)
        try? FileManager.default.removeItem(atPath: temporaryPath)
        try Self.make(temporaryPath)
    }

    static func make(_ path: String) throws(DatasetError) {
        guard mkdir(path, 0o755) == 0 else { throw .cannotWrite(path, errno: errno) }
    }

    /// Renames the folder into place; an existing one (with `replacing`) is moved aside first and then removed, as
    /// a folder cannot be renamed over one that holds files.
    func commit() throws(DatasetError) {
        let aside = temporaryPath + ".replaced"
        let replaces = replacing && FileManager.default.fileExists(atPath: path)
        if replaces, rename(path, aside) != 0 { throw .cannotWrite(path, errno: errno) }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            if replaces { rename(aside, path) }
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw .cannotWrite(path, errno: code)
        }
        if replaces { try? FileManager.default.removeItem(atPath: aside) }
    }
}

/// A zip made with ZIPFoundation under a temporary name, synced, and renamed into place when whole.
struct DatasetZip: Sendable {
    let path: String

    func write(from folder: String, as name: String) throws(DatasetError) {
        let temporary = OutputFile.temporaryName(for: path)
        unlink(temporary)
        do {
            let archive = try Archive(url: URL(fileURLWithPath: temporary), accessMode: .create)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted(by: Self.tablesFirst)
            for file in files {
                try archive.addEntry(
                    with: name + "/" + file, fileURL: URL(fileURLWithPath: folder + "/" + file),
                    compressionMethod: .deflate)
            }
        } catch {
            unlink(temporary)
            throw .cannotWrite(path, errno: errno == 0 ? EIO : errno)
        }
        let file = open(temporary, O_RDONLY | O_CLOEXEC)
        let synced = file >= 0 && fsync(file) == 0
        if file >= 0 { close(file) }
        guard synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .cannotWrite(path, errno: code)
        }
    }

    /// posts, mentions, media, then the term's tables, as a reader meets them.
    private static func tablesFirst(_ lhs: String, _ rhs: String) -> Bool {
        let order = PostTable.allCases.map(\.fileName) + ["popularity.csv", "network.csv"]
        return (order.firstIndex(of: lhs) ?? order.count, lhs) < (order.firstIndex(of: rhs) ?? order.count, rhs)
    }
}
