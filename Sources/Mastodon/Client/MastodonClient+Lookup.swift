import Posts

/// Whether the server still has each status: `GET /api/v1/statuses/:id`, public for public posts. The API's own 404
/// (JSON, "Record not found") and 410 mean deleted — a deleted account's statuses go with it; a 404 that is a web
/// page, a 5xx, a 429 or no answer is an error, never a deletion.
extension MastodonClient: PostLookup {
    public var network: Network { .mastodon }
    public var lookupBatch: Int { 1 }

    public func gone(among ids: [String]) async throws -> Set<String> {
        var gone = Set<String>()
        for id in ids where !id.isEmpty {
            do {
                _ = try await http.get("/api/v1/statuses/" + URLQuery.encode(id), endpoint: nil)
            } catch let failure as MastodonError where failure.reason.isDeleted {
                gone.insert(id)
            }
        }
        return gone
    }
}

extension MastodonError.Reason {
    /// What the API says of a record that was there and is not: its own 404 (with its JSON `error`), or 410 Gone.
    var isDeleted: Bool {
        switch self {
        case .unexpectedStatus(404, _), .unexpectedStatus(410, _): true
        default: false
        }
    }
}
