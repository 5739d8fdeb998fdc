import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where this process makes the files it sends (a dataset's zip and its tables): a folder of its own in the data
/// directory's `tmp` (on the same disk as the databases, not a small `/tmp`), `tmp/NAME`, owned through an exclusive
/// `flock` on `tmp/NAME.owner` held for as long as the process lives. The kernel lets go of the lock when the process
/// ends however it ends (a kill -9 too), so a starting server removes every folder whose lock it can take — what a
/// stopped process left, whatever its age — and never one that a running process (another server sharing the data
/// directory) is sending from.
final class TemporaryFolder: Sendable {
    /// The folder: `tmp/NAME`.
    let path: String
    /// The owner file's descriptor, open (and its lock held) until the process ends.
    private let owner: Int32

    private static let ownerSuffix = ".owner"
    /// An owner file before it is locked and renamed into place: a folder's owner is locked from the moment it has
    /// its name.
    private static let unlockedPrefix = ".unlocked-"

    /// Makes this process's folder in `parent`, first removing what stopped processes left there.
    init(in parent: String) throws {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        Self.removeAbandoned(in: parent)
        // Another process's clean-up may take an unlocked file's lock in the instant before this one does, and remove
        // it: then this one tries again under a new name.
        var attempts = 0
        while true {
            attempts += 1
            let name = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let unlocked = parent + "/" + Self.unlockedPrefix + name
            let descriptor = open(unlocked, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw TemporaryFolderError(path: unlocked, code: errno) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, rename(unlocked, parent + "/" + name + Self.ownerSuffix) == 0
            {
                (owner, path) = (descriptor, parent + "/" + name)
                break
            }
            let code = errno
            close(descriptor)
            if attempts == 3 { throw TemporaryFolderError(path: unlocked, code: code) }
        }
        guard mkdir(path, 0o755) == 0 else { throw TemporaryFolderError(path: path, code: errno) }
    }

    /// A server that stops cleanly takes its folder with it: the folder first, so a folder never stays without its
    /// owner file.
    deinit {
        try? FileManager.default.removeItem(atPath: path)
        unlink(path + Self.ownerSuffix)
        close(owner)
    }

    /// A path in the folder for a new file.
    func file(named name: String) -> String {
        path + "/" + name
    }

    /// Every folder (and owner file) in `parent` whose owner's lock is free, and anything else there that no owner
    /// claims: files earlier releases made in `tmp` itself.
    static func removeAbandoned(in parent: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: parent) else { return }
        let owned = Set(
            names.compactMap { name -> String? in
                guard name.hasSuffix(ownerSuffix) || name.hasPrefix(unlockedPrefix) else { return nil }
                let descriptor = open(parent + "/" + name, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { return nil }
                defer { close(descriptor) }
                guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else {
                    // Its process is gone: the folder first, so a folder never stays without its owner file.
                    if name.hasSuffix(ownerSuffix) {
                        try? manager.removeItem(atPath: parent + "/" + name.dropLast(ownerSuffix.count))
                    }
                    unlink(parent + "/" + name)
                    return nil
                }
                return name.hasSuffix(ownerSuffix) ? String(name.dropLast(ownerSuffix.count)) : name
            })
        for name in names where !owned.contains(name) && !name.hasSuffix(ownerSuffix) && !name.hasPrefix(unlockedPrefix)
        {
            try? manager.removeItem(atPath: parent + "/" + name)
        }
    }
}

/// The temporary folder could not be made: a sentence with the path and the system's reason.
struct TemporaryFolderError: Error, CustomStringConvertible {
    let path: String
    let code: Int32

    var description: String { "Could not make the temporary folder \(path): \(String(cString: strerror(code)))." }
}
