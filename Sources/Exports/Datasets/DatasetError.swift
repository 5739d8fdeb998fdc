import Foundation
import Posts

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a dataset was not written, in one sentence that says what was left behind.
public enum DatasetError: ExplainedError, Equatable {
    /// The output exists and `--force` was not given.
    case exists(String)
    /// Writing failed (`errno`): nothing is left under the final name.
    case cannotWrite(String, errno: Int32)
    /// The pseudonyms' secret cannot be read or made.
    case secret(String, reason: String)
    /// CSV tables are several files: they need a folder or a zip, not standard output.
    case tablesNeedPath
    /// Datasets are made from a term's counted posts; this one is not in Recents (or left it during the export).
    case notInRecents(String)

    /// Refuses an output that exists, unless it is to be replaced.
    public static func refuseExisting(_ path: String, replacing: Bool) throws(DatasetError) {
        if !replacing, FileManager.default.fileExists(atPath: path) { throw .exists(path) }
    }

    public var description: String {
        switch self {
        case .exists(let path):
            "“\(path)” exists already: give --force to replace it, or another --output."
        case .cannotWrite(let path, let code):
            "Could not write “\(path)”: \(Self.reason(code)). Nothing was left under that name."
        case .secret(let path, let reason):
            "Cannot use the pseudonyms' secret “\(path)”: \(reason)."
        case .tablesNeedPath:
            "CSV tables are several files: give --output a folder, or a name ending in .zip."
        case .notInRecents(let term):
            "“\(term)” is not in Recents: datasets are made from the posts fetched for a search."
        }
    }

    /// A system error number in words ("the disk is full"), never the number.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "the disk is full"
        case EDQUOT: "the disk quota is used up"
        case EACCES, EPERM: "permission denied"
        case ENOENT: "its folder does not exist"
        default: String(cString: strerror(code))
        }
    }
}
