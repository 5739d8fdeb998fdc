import Posts

extension PostSource {
    /// The ids of every page of `query`, `count` at a time, each page asked for where the one before left off
    /// (`older`): what paging must give without a gap or a repeat.
    public func idsOfEveryPage(_ query: String, count: Int) async throws -> [String] {
        var request = SearchRequest(query: query, count: count)
        var seen: [String] = []
        while true {
            let page = try await search(request)
            seen += page.posts.map(\.id)
            guard let older = page.older else { return seen }
            request = older
        }
    }
}
