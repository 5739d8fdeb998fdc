import Posts
import Twitter
import WireJSON

/// Prints the first problems of a run on stderr and counts every one, so a file of a million broken lines neither
/// floods the terminal nor hides how many there were.
struct ProblemLog {
    static let printed = 20
    private(set) var count = 0

    /// `suffix`: what happened to the line, e.g. " (skipped)".
    mutating func add(_ problem: DecodingProblem, suffix: String = "") {
        count += 1
        if count <= Self.printed { StandardError.write("smashtag: \(problem)\(suffix)") }
    }

    /// Says how many there were when not all were printed: "25 lines skipped; the first 20 are listed above."
    func reportUnprinted(_ what: String) {
        guard count > Self.printed else { return }
        StandardError.write("smashtag: \(count) lines \(what); the first \(Self.printed) are listed above.")
    }
}
