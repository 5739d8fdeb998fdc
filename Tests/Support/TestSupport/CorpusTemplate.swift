import Corpus

/// A corpus made once per test process and copied for each test that asks: suites that need the same small corpus
/// pay for generating it once, not once per test.
public actor CorpusTemplate {
    private let fill: @Sendable (SQLiteCorpus) async throws -> Void
    private var made: Task<SQLiteCorpus, any Error>?

    /// `fill` writes what every copy holds, into a corpus in memory.
    public init(_ fill: @escaping @Sendable (SQLiteCorpus) async throws -> Void) {
        self.fill = fill
    }

    /// A new corpus file at `path` holding what `fill` wrote.
    public func copy(to path: String) async throws {
        try await template().copy(to: path)
    }

    private func template() async throws -> SQLiteCorpus {
        if let made { return try await made.value }
        let fill = fill
        let task = Task {
            let corpus = try SQLiteCorpus.inMemory()
            try await fill(corpus)
            return corpus
        }
        made = task
        return try await task.value
    }
}
