import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One `searchPosts` request followed across pages for one position, then merged with the others.
struct SearchWalk {
    let request: SearchRequest
    private(set) var posts: [Post] = []
    private(set) var problems: [String] = []
    private(set) var pages = 0
    /// The service's cursor for what lies after the last answer, within this walk only: it counts into one result
    /// list, which moves as posts arrive, so pages never hand it on. Nil when the service has no more.
    private(set) var cursor: String?
    private var done = false
    /// A newer walk that stopped at its page limit before reaching the newest post shown.
    private(set) var isCapped = false
    private(set) var service = ""

    init(request: SearchRequest) {
        self.request = request
    }

    /// The next request's parameters; nil when the walk is over. An older page asks `until` just after the oldest
    /// post shown (the service compares milliseconds), one more than it shows, as that post comes again.
    func nextParameters(_ search: BlueskySearch) -> [(String, String)]? {
        guard !done else { return nil }
        switch request.position {
        case .newest:
            return search.parameters(limit: request.count)
        case .newer(let id):
            guard let since = PostTime.of(uri: id) else { return nil }
            return search.parameters(limit: request.count) + [("since", PostTime.iso8601(since))]
                + (cursor.map { [("cursor", $0)] } ?? [])
        case .older(let id, _):
            guard let until = PostTime.of(uri: id) else { return nil }
            return search.parameters(limit: min(request.count + 1, SearchRequest.maximumCount))
                + [("until", PostTime.iso8601(until.addingTimeInterval(0.001)))]
        }
    }

    /// The newer walk stops here, short of the newest post shown.
    mutating func stopAtPageLimit() {
        isCapped = !done
        done = true
    }

    mutating func take(_ answer: JSONValue, service: String) {
        self.service = service
        pages += 1
        cursor = answer["cursor"]?.nonEmptyString
        let results = FeedResponse.posts(of: answer)
        for result in results {
            switch result {
            case .success(let post): posts.append(post)
            case .failure(let error): problems.append("Bluesky (\(service)): \(error.description); it is left out.")
            }
        }
        let empty = results.isEmpty
        switch request.position {
        case .newer(let id):
            // Newer pages go on until they reach the newest post already shown.
            done = empty || cursor == nil || posts.contains { $0.id == id }
        case .newest, .older:
            done = true
        }
    }

    /// The walks' posts merged newest first, without the post a position starts from, cut to the request's count.
    static func page(of walks: [SearchWalk], for request: SearchRequest) -> SearchPage {
        var seen = Set<String>()
        let boundary: String? =
            switch request.position {
            case .newest: nil
            case .newer(let id), .older(let id, _): id
            }
        var merged = walks.flatMap(\.posts).filter { $0.id != boundary && seen.insert($0.id).inserted }
        if case .newer(let id) = request.position, let reached = PostTime.of(uri: id) {
            merged = merged.filter { $0.created >= reached }
        }
        merged.sort { $0.created != $1.created ? $0.created > $1.created : $0.id > $1.id }
        // A newer page shows the posts just after the newest shown, so none is skipped; a capped one, which skips
        // some anyway, the newest.
        let justAfter = if case .newer = request.position { !walks.contains(where: \.isCapped) } else { false }
        let shown = justAfter ? Array(merged.suffix(request.count)) : Array(merged.prefix(request.count))
        let hasMore = shown.count < merged.count || walks.contains { $0.cursor != nil }
        var problems = walks.flatMap(\.problems)
        if let service = walks.first(where: \.isCapped)?.service {
            problems.append(
                """
                Bluesky (\(service)): more posts arrived than one page follows; the newest are shown, and some in \
                between are skipped.
                """
            )
        }
        return SearchPage(
            posts: shown, newer: request.newer(after: shown), older: request.older(after: shown, hasMore: hasMore),
            problems: problems
        )
    }
}

/// When a post was made, from its record key: a TID holds the microseconds since 1970 in its top 53 bits, written in
/// base32-sortable (`234567abcdefghijklmnopqrstuvwxyz`).
enum PostTime {
    private static let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)

    static func of(uri: String) -> Date? {
        // 13 digits of 5 bits hold 65; the first digit may use only 4 of its 5 (2…j), as a TID's top bit is 0.
        guard let key = uri.split(separator: "/").last, key.utf8.count == 13,
            let first = key.utf8.first.flatMap({ alphabet.firstIndex(of: $0) }), first < 16
        else { return nil }
        var value: UInt64 = 0
        for byte in key.utf8 {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            value = value << 5 | UInt64(digit)
        }
        return Date(timeIntervalSince1970: Double(value >> 10) / 1_000_000)
    }

    /// With milliseconds, as the service compares them.
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
