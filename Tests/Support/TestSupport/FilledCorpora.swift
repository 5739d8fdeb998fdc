import Corpus
import Posts
import Synchronization

/// One corpus of the same posts per kind, filled once for the many queries a suite asks of them (its tests run at
/// once: the first to ask fills it, the others wait for that).
public final class FilledCorpora: Sendable {
    private let posts: [Post]
    private let filled = Mutex<[TestCorpus: Task<any PostCorpus, any Error>]>([:])

    public init(_ posts: [Post]) {
        self.posts = posts
    }

    public func corpus(_ kind: TestCorpus) async throws -> any PostCorpus {
        let task = filled.withLock { filled in
            if let task = filled[kind] { return task }
            let task = Task<any PostCorpus, any Error> { [posts] in
                let corpus = try await kind.open()
                _ = try await corpus.add(posts)
                return corpus
            }
            filled[kind] = task
            return task
        }
        return try await task.value
    }
}
