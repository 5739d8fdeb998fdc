import AppStore

/// A term's servers as a dataset's `servers.csv`: `server,written,gave`, one row per server of a fleet that fed it
/// (none when no fleet did), most posts first.
enum ServersFile {
    static func csv(_ origins: TermOrigins?) -> String {
        CSV.row(["server", "written", "gave"])
            + (origins?.servers ?? []).map { CSV.row([$0.server, String($0.written), String($0.gave)]) }.joined()
    }
}
