import Posts
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A hashtag's use on the server asked, from its Tag's `history` (`GET /api/v1/tags/:name`, public): the last seven
/// days, posts and accounts each day, as that server saw them.
extension MastodonClient: VolumeSource {
    public func volume(of query: String) async throws -> QueryVolume? {
        guard case .term(.hashtag(let tag))? = try? SearchQuery(parsing: query) else { return nil }
        let server = http.configuration.serverName
        let limits = "as \(server) saw them in its last 7 days (a server counts only the posts that reach it)"
        return QueryVolume(limits: limits, days: try await http.tagHistory(tag))
    }

    public var volumeLimits: String { "Mastodon counts one hashtag at a time (#tag)" }
}

extension MastodonHTTP {
    /// The tag's days; none when the server has never seen the tag (its 404).
    func tagHistory(_ tag: String) async throws -> [QueryVolume.Day] {
        let body: [UInt8]
        do {
            // Mastodon finds a tag whatever its case; one spelling keeps the requests alike.
            body = try await get("/api/v1/tags/" + URLQuery.encode(tag.lowercased()), endpoint: nil).1
        } catch let failure as MastodonError where failure.reason.isNotFound {
            return []
        }
        let tag = try json(body)
        do throws(MastodonDecodingError) {
            return try TagHistory.days(of: tag)
        } catch {
            throw self.error(.notMastodon(error.description))
        }
    }
}

/// Mastodon's Tag entity's `history`: a day each (`day`, a UNIX time of midnight UTC, as a string), with `uses` and
/// `accounts` (strings too).
package enum TagHistory {
    package static func days(of tag: JSONValue) throws(MastodonDecodingError) -> [QueryVolume.Day] {
        guard let history = tag["history"]?.array else { throw .missing("tag history") }
        var days: [QueryVolume.Day] = []
        for day in history {
            guard let start = day["day"]?.string.flatMap(Int.init), let uses = day["uses"]?.string.flatMap(Int.init)
            else { throw .missing("day or uses in a tag's history") }
            days.append(
                QueryVolume.Day(
                    start: Date(timeIntervalSince1970: TimeInterval(start)), posts: uses,
                    accounts: day["accounts"]?.string.flatMap(Int.init)))
        }
        return days
    }
}
