import Foundation
import SmashtagApp

/// Files a request makes and sends (a dataset's zip), in the data directory's `tmp` folder: on the same disk as
/// the databases, not a small `/tmp`.
extension Site {
    /// How long a file may sit there before a starting server takes it for one a stopped server left behind.
    private static let abandonedAfter: TimeInterval = 3600

    var temporaryFolder: String { directory.path + "/tmp" }

    /// A path in the folder (made if missing) for a new file.
    func temporaryFile(named name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: temporaryFolder, withIntermediateDirectories: true)
        return temporaryFolder + "/" + name
    }

    /// Deletes what a server stopped mid-download left behind. Only old files: another server sharing the data
    /// directory may be sending one now.
    func removeAbandonedFiles() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: temporaryFolder) else { return }
        let cutoff = Date().addingTimeInterval(-Self.abandonedAfter)
        for name in names {
            let path = temporaryFolder + "/" + name
            let modified = (try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, modified < cutoff { try? manager.removeItem(atPath: path) }
        }
    }
}
