/// A page of posts from several sources, newest first, and where each source goes on from it.
public struct MergedPage: Sendable {
    public let posts: [Post]
    /// For each source asked: its requests for newer and older posts, just past what this page shows of it (for a
    /// source that failed, where it was asked from, so the next page asks it again).
    public let cursors: [String: SourceCursor]
    /// The sources that failed, each with its sentence; the page holds the others' posts.
    public let failures: [SourceFailure]
    /// What the sources reported but could still serve the page around.
    public let problems: [String]

    public init(
        posts: [Post], cursors: [String: SourceCursor] = [:], failures: [SourceFailure] = [], problems: [String] = []
    ) {
        self.posts = posts
        self.cursors = cursors
        self.failures = failures
        self.problems = problems
    }

    /// Merges the sources' pages: a post two sources found is shown once; of the rest, the `count` newest (for
    /// newer posts, the `count` just after what was shown, so nothing is skipped). Each source's cursors are moved
    /// only as far as its posts that made the page, so what was cut comes on the next one.
    init(merging answers: [SourceAnswer], _ request: MergedRequest) throws {
        let pages = answers.compactMap { answer in (try? answer.outcome.get()).map { (answer, $0) } }
        failures = answers.compactMap { answer in
            if case .failure(let failure) = answer.outcome { failure } else { nil }
        }
        if pages.isEmpty, !failures.isEmpty { throw Self.error(for: failures) }
        let merged = Self.newestFirst(pages.flatMap(\.1.posts))
        posts = request.position.isNewer ? Array(merged.suffix(request.count)) : Array(merged.prefix(request.count))
        let shown = Set(posts.map(\.key))
        cursors = Dictionary(
            uniqueKeysWithValues: answers.map { answer in
                switch answer.outcome {
                case .success(let page):
                    (
                        answer.source,
                        SourceCursor(page, of: answer.request, showing: shown, isNewer: request.position.isNewer)
                    )
                case .failure: (answer.source, SourceCursor(newer: answer.request, older: answer.request))
                }
            })
        problems = pages.flatMap(\.1.problems)
    }

    /// Newest first, each post once; posts of the same moment keep the sources' order.
    private static func newestFirst(_ posts: [Post]) -> [Post] {
        var seen = Set<PostKey>()
        let unique = posts.filter { seen.insert($0.key).inserted }
        // One source's page comes newest first already.
        if unique.indices.dropFirst().allSatisfy({ unique[$0 - 1].created >= unique[$0].created }) { return unique }
        // Indices are sorted, not the posts: a post is a large value, and every move would copy it.
        let order = unique.indices.sorted { a, b in
            unique[a].created != unique[b].created ? unique[a].created > unique[b].created : a < b
        }
        return order.map { unique[$0] }
    }

    /// A query every source refused is one mistake, said once; anything else is said per source.
    private static func error(for failures: [SourceFailure]) -> any Error {
        if let first = failures.first, failures.allSatisfy(\.isQueryError) { return QueryError(first.message) }
        return SourcesFailed(failures: failures)
    }
}

/// Where one source of a merged search goes on.
public struct SourceCursor: Sendable, Hashable, Codable {
    /// The posts just after the newest this source has shown.
    public let newer: SearchRequest
    /// The posts before the oldest it has shown; nil when it has no more (or, after a page of newer posts, when
    /// the older side is the caller's).
    public let older: SearchRequest?

    public init(newer: SearchRequest, older: SearchRequest?) {
        self.newer = newer
        self.older = older
    }

    /// The source's own cursors when all its posts made the page; else just past those that did, or where it was
    /// asked from when none did.
    init(_ page: SearchPage, of request: SearchRequest, showing shown: Set<PostKey>, isNewer: Bool) {
        let kept = page.posts.filter { shown.contains($0.key) }
        if kept.count == page.posts.count {
            self.init(newer: page.newer, older: page.older)
            return
        }
        let newer = kept.first.map { request.at(.newer(than: page.position(after: $0, newer: true))) } ?? request
        let older =
            isNewer
            ? page.older
            : kept.last.map { request.at(.older(than: page.position(after: $0, newer: false), token: nil)) } ?? request
        self.init(newer: newer, older: older)
    }
}
