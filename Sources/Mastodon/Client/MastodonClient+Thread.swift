import Posts
import WireJSON

/// A post's thread as its server gives it: `GET /api/v1/statuses/:id` and `…/:id/context` (public for public posts),
/// the ancestors root first and the descendants depth first, each naming the status it answers (`in_reply_to_id`) and
/// saying how many replies it has (`replies_count`). A server answers a visitor with part of a long thread (40
/// ancestors and 60 descendants, 20 levels deep, since Mastodon 4); what it leaves out is counted where a status says.
extension MastodonClient: ThreadSource {
    public func thread(of key: PostKey, after: String?, limits: ThreadLimits) async throws -> PostThread? {
        guard key.network == .mastodon, !key.id.isEmpty else { return nil }
        return try await thread(ofStatus: key.id, after: after, limits: limits, byURI: false)
    }

    /// The thread of the status with this id here; `byURI`: its posts named by their ActivityPub `uri`, as a fleet
    /// names them (`after` too), each seen on this server.
    func thread(ofStatus id: String, after: String?, limits: ThreadLimits, byURI: Bool) async throws -> PostThread? {
        let path = "/api/v1/statuses/" + URLQuery.encode(id)
        let status: JSONValue
        do {
            status = try http.json(try await http.get(path, endpoint: nil).1)
        } catch let failure as MastodonError where failure.reason.isDeleted {
            return nil
        }
        let context = try http.json(try await http.get(path + "/context", endpoint: nil).1)
        guard let ancestors = context["ancestors"]?.array, let descendants = context["descendants"]?.array else {
            throw http.error(.notMastodon("its answer to \(path)/context has no ancestors and descendants"))
        }
        var uris: [String: String] = [:]
        if byURI { for each in [status] + ancestors + descendants { StatusDecoder.uris(of: each, into: &uris) } }
        let naming = StatusNaming(uris: byURI ? uris : nil, server: http.configuration.serverName)
        var assembly = ThreadAssembly()
        for status in ancestors + descendants { add(status, to: &assembly, naming) }
        return assembly.thread(
            of: naming.post(try decode(status)), after: after, limits: limits,
            source: "Mastodon (\(http.configuration.serverName))")
    }

    private func decode(_ status: JSONValue) throws -> Post {
        do throws(MastodonDecodingError) { return try StatusDecoder.post(from: status) } catch {
            throw http.error(.malformed(error.description))
        }
    }

    /// A status of the context, or, where it cannot be read, a gap in its place.
    private func add(_ status: JSONValue, to assembly: inout ThreadAssembly, _ naming: StatusNaming) {
        guard let id = status["id"]?.nonEmptyString else { return }
        if let post = try? StatusDecoder.post(from: status) {
            assembly.add(naming.post(post))
        } else {
            let parent = status["in_reply_to_id"]?.nonEmptyString.map(naming.id)
            assembly.add(ThreadAssembly.Gap(id: naming.id(id), parent: parent, gap: .notFound))
        }
        if let count = status["replies_count"]?.int { assembly.count(replies: count, of: naming.id(id)) }
    }
}

/// How a thread names its statuses: by this server's ids, or by their `uri` (a fleet's).
private struct StatusNaming {
    let uris: [String: String]?
    let server: String

    func id(_ local: String) -> String { uris?[local] ?? local }

    func post(_ post: Post) -> Post {
        guard let uris else { return post }
        return post.identified(by: { uris[$0] }, seenOn: [server])
    }
}
