import Posts
import WireJSON

/// A post's thread as its server gives it: `GET /api/v1/statuses/:id` and `…/:id/context` (public for public posts),
/// the ancestors root first and the descendants depth first, each naming the status it answers (`in_reply_to_id`) and
/// saying how many replies it has (`replies_count`). A server answers a visitor with part of a long thread (40
/// ancestors and 60 descendants, 20 levels deep, since Mastodon 4); what it leaves out is counted where a status says.
extension MastodonClient: ThreadSource {
    public func thread(of key: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread? {
        guard key.network == .mastodon, !key.id.isEmpty else { return nil }
        let path = "/api/v1/statuses/" + URLQuery.encode(key.id)
        let status: JSONValue
        do {
            status = try http.json(try await http.get(path, endpoint: nil).1)
        } catch let failure as MastodonError where failure.reason.isDeleted {
            return nil
        }
        let focus = try decode(status)
        let context = try http.json(try await http.get(path + "/context", endpoint: nil).1)
        guard let ancestors = context["ancestors"]?.array, let descendants = context["descendants"]?.array else {
            throw http.error(.notMastodon("its answer to \(path)/context has no ancestors and descendants"))
        }
        var assembly = ThreadAssembly()
        for status in ancestors + descendants { add(status, to: &assembly) }
        return assembly.thread(
            of: focus, after: after, limits: limits, source: "Mastodon (\(http.configuration.serverName))")
    }

    private func decode(_ status: JSONValue) throws -> Post {
        do throws(MastodonDecodingError) { return try StatusDecoder.post(from: status) } catch {
            throw http.error(.malformed(error.description))
        }
    }

    /// A status of the context, or, where it cannot be read, a gap in its place.
    private func add(_ status: JSONValue, to assembly: inout ThreadAssembly) {
        guard let id = status["id"]?.nonEmptyString else { return }
        if let post = try? StatusDecoder.post(from: status) {
            assembly.add(post)
        } else {
            assembly.add(ThreadAssembly.Gap(id: id, parent: status["in_reply_to_id"]?.nonEmptyString, gap: .notFound))
        }
        if let count = status["replies_count"]?.int { assembly.count(replies: count, of: id) }
    }
}
