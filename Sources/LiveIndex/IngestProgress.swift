import Corpus

/// What an ingest has done so far, and the corpus it fills.
public struct IngestProgress: Sendable, Equatable {
    public private(set) var posts = 0
    /// Creates replayed after a restart, already stored.
    public private(set) var duplicates = 0
    public private(set) var deleted = 0
    /// Posts the options leave out (not one of the tags or languages asked for).
    public private(set) var passedOver = 0
    /// Posts older than the days kept, removed.
    public private(set) var pruned = 0
    public private(set) var skipped = 0
    /// The cursor of the last commit.
    public private(set) var cursor: Int64?
    /// Every post in the corpus, as of the last commit (nil until known).
    public private(set) var stored: Int?
    /// The corpus file's size, as of the last commit.
    public private(set) var bytesOnDisk: Int64?
    /// Each reason an event was skipped, the first time it was: "line 3: a malformed Jetstream event: no did".
    public private(set) var problems: [String] = []
    private var reasons: Set<String> = []

    init(stored: Int? = nil) {
        self.stored = stored
    }

    mutating func record(_ applied: AppliedChanges, cursor: Int64, bytesOnDisk: Int64) {
        (posts, duplicates, deleted) = (
            posts + applied.inserted, duplicates + applied.duplicates, deleted + applied.deleted
        )
        stored = stored.map { $0 + applied.inserted - applied.deleted }
        self.cursor = cursor
        self.bytesOnDisk = bytesOnDisk
    }

    mutating func recordPruned(_ count: Int) {
        pruned += count
        stored = stored.map { $0 - count }
    }

    mutating func passOver() { passedOver += 1 }

    mutating func skip(_ reason: String, at place: String) {
        skipped += 1
        if reasons.insert(reason).inserted { problems.append("\(place): \(reason)") }
    }
}
