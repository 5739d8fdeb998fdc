import Posts
import WireJSON

/// Whether X still has each post: `GET /2/tweets?ids=…`, 100 a request. The answer's `errors` name each id it could
/// not find (`resource-not-found`, as recorded answers show: deleted posts, and those of deleted or suspended
/// accounts); a post kept from view for another reason (a protected account) is not a deletion.
extension XAPIClient: PostLookup {
    public var network: Network { .twitter }
    public var lookupBatch: Int { 100 }

    public func gone(among ids: [String]) async throws -> Set<String> {
        let asked = ids.filter(TweetID.isValid)
        guard !asked.isEmpty else { return [] }
        let url = configuration.baseURL + "/2/tweets?ids=" + asked.joined(separator: ",")
        return try XPostLookup.gone(in: try await fetch(url), among: Set(asked))
    }
}

/// The lookup's document: `{"data": [{"id"…}], "errors": [{"resource_id", "resource_type", "type"…}]}`.
package enum XPostLookup {
    static let notFound = "https://api.twitter.com/2/problems/resource-not-found"

    package static func gone(in body: [UInt8], among asked: Set<String>) throws(XAPIError) -> Set<String> {
        let document = try Self.document(body)
        let found = Set((document["data"]?.array ?? []).compactMap { $0["id"]?.string })
        let missing = (document["errors"]?.array ?? []).compactMap { error -> String? in
            guard error["type"]?.string == notFound, error["resource_type"]?.string == "tweet" else { return nil }
            return error["resource_id"]?.string ?? error["value"]?.string
        }
        return Set(missing).intersection(asked).subtracting(found)
    }

    /// A lookup's answer, read: its `data` (absent when every id is missing) or its `errors`, else it is no lookup.
    static func document(_ body: [UInt8]) throws(XAPIError) -> JSONValue {
        let document: JSONValue
        do throws(JSONDocumentError) { document = try JSONValue.document(body) } catch {
            throw .malformedResponse(error.description)
        }
        guard document["data"] != nil || document["errors"] != nil else {
            throw .malformedResponse("its lookup has neither data nor errors")
        }
        return document
    }
}
