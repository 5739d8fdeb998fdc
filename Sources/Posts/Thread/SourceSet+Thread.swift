extension SourceSet {
    /// The post's thread from the first source that has the post, in the set's order (the corpus first): nil when
    /// none has it. A source that fails is passed over for the next; when none had the post and one failed, its
    /// sentence is the answer (`SourcesFailed`), since the post may be there.
    public func thread(
        of key: PostKey, after: String? = nil, limits: ThreadLimits = ThreadLimits()
    ) async throws -> PostThread? {
        var failures: [SourceFailure] = []
        for named in sources {
            guard let source = named.source as? any ThreadSource else { continue }
            do {
                if let thread = try await source.thread(of: key, after: after, limits: limits) { return thread }
            } catch {
                failures.append(SourceFailure(source: named.name, title: named.title, error: error))
            }
        }
        guard failures.isEmpty else { throw SourcesFailed(failures: failures) }
        return nil
    }
}
