import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written under a temporary name beside its final one and renamed into place only when whole: a full disk,
/// a kill or an error midway never leaves half a file under the final name. Writes are buffered (64 KB).
///
/// Sendable so a dataset can write it from NIO's thread pool: one writer uses it, awaiting each write before the next,
/// so no two threads ever touch its buffer at once.
final class OutputFile: @unchecked Sendable {
    let path: String
    let temporaryPath: String
    /// Synced to the disk before the rename: a dataset's own files. A zip's tables, read back at once and then
    /// deleted, need not wait for the disk.
    private let durable: Bool
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let bufferSize = 65_536

    /// Opens the temporary file (`.NAME.partial-PID`, beside the final one).
    init(path: String, durable: Bool = true) throws(DatasetError) {
        (self.path, self.durable) = (path, durable)
        temporaryPath = Self.temporaryName(for: path)
        unlink(temporaryPath)
        descriptor = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path, errno: errno) }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        discard()
    }

    /// Closes and removes the temporary file, unless it was committed. A failed write's caller says so itself rather
    /// than leave it to `deinit`: a closure that wrote on NIO's thread pool may still hold the file when the error
    /// reaches the command, which then exits before the last reference goes (a loaded machine left the file behind).
    func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporaryPath)
    }

    func write(_ bytes: some Collection<UInt8>) throws(DatasetError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    func write(_ text: String) throws(DatasetError) {
        try write(text.utf8)
    }

    /// Flushes, syncs and renames the file into place (over an existing file only if the caller checked `--force`).
    func commit() throws(DatasetError) {
        try flush()
        let synced = !durable || fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        descriptor = -1
        guard synced, rename(temporaryPath, path) == 0 else {
            let failure = synced ? errno : code
            unlink(temporaryPath)
            throw .cannotWrite(path, errno: failure)
        }
    }

    private func flush() throws(DatasetError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(path, errno: errno)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `.NAME.partial-PID` beside `path`; what an export killed mid-write left under that pattern (its process gone)
    /// is removed first, so a kill leaves nothing behind for long.
    static func temporaryName(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        removeAbandoned(in: folder.isEmpty ? "." : folder, prefix: ".\(name).partial-")
        return "\(folder).\(name).partial-\(getpid())"
    }

    private static func removeAbandoned(in folder: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0.isNumber }), pid != getpid(),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}

/// The C library's `write`, which the class's own `write` hides.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
