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
    /// Where its posts came from: a fleet's servers (`servers.csv`).
    public let origins: TermOrigins?

    public init(popularity: PopularityTable, network: MentionNetwork, origins: TermOrigins? = nil) {
        (self.popularity, self.network, self.origins) = (popularity, network, origins)
    }

    static let fileNames = ["popularity.csv", "network.csv", "servers.csv"]

    /// The term's popularity table and co-mention network in the window ending `now`, read for its dataset.
    public static func read(
        for term: String, window: TimeWindow, now: Date, in database: AppDatabase
    ) async throws -> TermTables {
        let popularity = Popularity(database: database)
        guard let network = try await popularity.network(for: term, NetworkOptions(window: window), now: now) else {
            throw DatasetError.notInRecents(term)
        }
        return TermTables(
            popularity: try await popularity.table(for: term, window: window, now: now), network: network,
            origins: try await Origins(database: database).of(term, window: window, now: now))
    }
}

/// A dataset: posts read a batch at a time and written as they come — NDJSON lines, or CSV tables in a folder or a
/// zip — pseudonymised when asked, so memory holds one batch however many posts there are. Every file it writes comes
/// with its `datapackage.json` (a sidecar beside an NDJSON file): what it holds and how it was collected. Each batch
/// is made and written on NIO's thread pool: thousands of posts to format and files to write, which on a cooperative
/// thread would keep a server's pages waiting while a few downloads run.
public struct Dataset<Batches: AsyncSequence>: Sendable where Batches.Element == [CountedPost], Batches: Sendable {
    public let batches: Batches
    public let tables: TermTables?
    public let pseudonymiser: Pseudonymiser?
    public let provenance: Provenance

    public init(batches: Batches, tables: TermTables?, pseudonymiser: Pseudonymiser?, provenance: Provenance) {
        (self.batches, self.tables, self.pseudonymiser, self.provenance) = (batches, tables, pseudonymiser, provenance)
    }

    /// The NDJSON lines, each batch's handed to `write` as one piece; returns how many posts were written. A stream
    /// has no file beside it: its description is the sidecar of `writeNDJSON(at:replacing:)`.
    @discardableResult
    public func writeNDJSON(_ write: ([UInt8]) async throws -> Void) async throws -> Int {
        try await writeLines(write).posts
    }

    private func writeLines(_ write: ([UInt8]) async throws -> Void) async throws -> DatasetSummary {
        var summary = DatasetSummary(consent: provenance.consent)
        for try await batch in batches {
            let exported = summary.add(batch)
            let lines = try await NIOThreadPool.singleton.runIfActive {
                var json = JSONWriter()
                for post in exported { PostLine.append(shared(post), to: &json) }
                return json.take()
            }
            try await write(lines)
        }
        return summary
    }

    /// The NDJSON in a file at `path` and its `datapackage.json` beside it (`DataPackage.sidecar`), each written
    /// under a temporary name and renamed into place when whole (over existing files only with `replacing`).
    @discardableResult
    public func writeNDJSON(at path: String, replacing: Bool) async throws -> Int {
        let sidecar = DataPackage.sidecar(of: path)
        try DatasetError.refuseExisting(path, replacing: replacing)
        try DatasetError.refuseExisting(sidecar, replacing: replacing)
        let file = try OutputFile(path: path)
        do {
            let summary = try await writeLines { lines in
                try await NIOThreadPool.singleton.runIfActive { try file.write(lines) }
            }
            let descriptor = DataPackage.lines(provenance, summary, file: Self.fileName(path))
            try await NIOThreadPool.singleton.runIfActive {
                try file.commit()
                let package = try OutputFile(path: sidecar)
                try package.write(descriptor)
                try package.commit()
            }
            return summary.posts
        } catch {
            file.discard()
            throw error
        }
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

    /// The CSV tables as a zip at `path`, its entries in a folder (`folder`, else named as the zip), made under a
    /// temporary name, synced and renamed into place when whole.
    @discardableResult
    public func writeZip(at path: String, replacing: Bool, folder name: String? = nil) async throws -> Int {
        try DatasetError.refuseExisting(path, replacing: replacing)
        let temporary = OutputFile.temporaryName(for: path)
        defer { unlink(temporary) }
        let count = try await writeZip(toTemporaryFile: temporary, folder: name ?? Self.zipFolderName(path)) { _ in }
        try await NIOThreadPool.singleton.runIfActive { try DatasetZip.commit(temporary, as: path) }
        return count
    }

    /// The CSV tables as a zip in `file`, which the caller removes, its entries in the folder `name`: the term's
    /// small tables first, then the posts'. A zip entry's size must be known before it is added (ZIPFoundation's
    /// `addEntry`), so each table is written to a temporary folder beside it, then added. After each entry, `final`
    /// hears how many of the file's first bytes will not change (nil when ZIP64's records leave that unknown until
    /// the end): a download sends them while the next table is made, so its first bytes go out at once.
    @discardableResult
    public func writeZip(
        toTemporaryFile file: String, folder name: String, final: @Sendable (UInt64?) -> Void
    ) async throws -> Int {
        let folder = file + ".tables"
        try? FileManager.default.removeItem(atPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try DatasetFolder.make(folder)
        // ZIPFoundation's reads, deflate and writes block: on NIO's thread pool, not the tasks' threads.
        try await NIOThreadPool.singleton.runIfActive { try DatasetZip.create(file) }
        let zip = { (tables: [String]) in
            try await NIOThreadPool.singleton.runIfActive {
                try tables.map { try DatasetZip.add(folder + "/" + $0, as: name + "/" + $0, to: file) }.last ?? nil
            }
        }
        if let tables {
            try await NIOThreadPool.singleton.runIfActive { try write(tables, into: folder, durable: false) }
            final(try await zip(TermTables.fileNames))
        }
        let summary = try await writePostTables(into: folder, durable: false)
        for table in PostTable.allCases { final(try await zip([table.fileName])) }
        try await NIOThreadPool.singleton.runIfActive { try writePackage(summary, into: folder, durable: false) }
        final(try await zip([DataPackage.fileName]))
        return summary.posts
    }

    private func writeTables(into folder: String) async throws -> Int {
        let summary = try await writePostTables(into: folder, durable: true)
        try await NIOThreadPool.singleton.runIfActive {
            if let tables { try write(tables, into: folder, durable: true) }
            try writePackage(summary, into: folder, durable: true)
        }
        return summary.posts
    }

    private func writePackage(_ summary: DatasetSummary, into folder: String, durable: Bool) throws {
        let file = try OutputFile(path: folder + "/" + DataPackage.fileName, durable: durable)
        try file.write(DataPackage.tables(provenance, summary, termTables: tables != nil))
        try file.commit()
    }

    private func writePostTables(into folder: String, durable: Bool) async throws -> DatasetSummary {
        let files = try PostTable.allCases.map { table in
            let file = try OutputFile(path: folder + "/" + table.fileName, durable: durable)
            try file.write(CSV.row(table.header))
            return (table, file)
        }
        var summary = DatasetSummary(consent: provenance.consent)
        for try await batch in batches {
            let exported = summary.add(batch)
            try await NIOThreadPool.singleton.runIfActive {
                let posts = exported.map(shared)
                for (table, file) in files { try file.write(posts.map(table.rows).joined()) }
            }
        }
        try await NIOThreadPool.singleton.runIfActive { for (_, file) in files { try file.commit() } }
        return summary
    }

    private func write(_ tables: TermTables, into folder: String, durable: Bool) throws {
        let naming = pseudonymiser.map { pseudonymiser in { pseudonymiser.mention($0) } } ?? { $0 }
        let popularity = try OutputFile(path: folder + "/" + TermTables.fileNames[0], durable: durable)
        try popularity.write(PopularityFile.csv(tables.popularity, naming: naming))
        try popularity.commit()
        let network = try OutputFile(path: folder + "/" + TermTables.fileNames[1], durable: durable)
        try network.write(NetworkFile.csv(tables.network, naming: naming))
        try network.commit()
        let servers = try OutputFile(path: folder + "/" + TermTables.fileNames[2], durable: durable)
        try servers.write(ServersFile.csv(tables.origins))
        try servers.commit()
    }

    /// The post as it is shared: pseudonymised when asked.
    private func shared(_ post: CountedPost) -> CountedPost {
        guard let pseudonymiser else { return post }
        return CountedPost(post: pseudonymiser.apply(to: post.post), counted: post.counted, expired: post.expired)
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func zipFolderName(_ path: String) -> String {
        let name = fileName(path)
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
        try DatasetError.refuseExisting(path, replacing: replacing)
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

/// A dataset's zip, made with ZIPFoundation an entry at a time (the archive reopened for each, so nothing
/// non-`Sendable` crosses to NIO's thread pool), then synced and renamed into place.
enum DatasetZip {
    static func create(_ file: String) throws(DatasetError) {
        unlink(file)
        do { _ = try Archive(url: URL(fileURLWithPath: file), accessMode: .create) } catch {
            throw .cannotWrite(file, errno: errno == 0 ? EIO : errno)
        }
    }

    /// Adds `table` as `entry`, deflated; returns how many of the zip's first bytes are now final.
    static func add(_ table: String, as entry: String, to file: String) throws(DatasetError) -> UInt64? {
        do {
            let archive = try Archive(url: URL(fileURLWithPath: file), accessMode: .update)
            try archive.addEntry(with: entry, fileURL: URL(fileURLWithPath: table), compressionMethod: .deflate)
        } catch {
            throw .cannotWrite(file, errno: errno == 0 ? EIO : errno)
        }
        return finalBytes(of: file)
    }

    /// Where the central directory starts, from the end record (the last 22 bytes: no comment is written): every
    /// byte before it stays as it is when the next entry is added, which is written over the directory. Nil for a
    /// ZIP64 archive (past 4 GB), whose end record says 0xFFFFFFFF.
    static func finalBytes(of file: String) -> UInt64? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var end = [UInt8](repeating: 0, count: 22)
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 22, end.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, 22, size - 22) }) == 22,
            end[0...3] == [0x50, 0x4B, 0x05, 0x06]
        else { return nil }
        let start = end[16...19].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return start == 0xFFFF_FFFF ? nil : start
    }

    /// Syncs the zip and renames it into place.
    static func commit(_ file: String, as path: String) throws(DatasetError) {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        let synced = descriptor >= 0 && fsync(descriptor) == 0
        let code = errno
        if descriptor >= 0 { close(descriptor) }
        guard synced else { throw .cannotWrite(path, errno: code) }
        guard rename(file, path) == 0 else { throw .cannotWrite(path, errno: errno) }
    }
}
