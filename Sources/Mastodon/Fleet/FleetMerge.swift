import Posts

/// One round of a fleet's search: every server's answer merged into one page, each post once under its ActivityPub
/// `uri` (the one id every server gives it), newest first, with where each server goes on from any post of the page.
///
/// A server's own position is the id, on that server, of the last post it gave that the page shows; the boundary
/// (the last post shown) keeps out what another server gave before. Where a server's order differs from the page's
/// (a post that reached it late), its position stays where no post of its answer that was left out is skipped.
package struct FleetMerge {
    /// One server's answer, as its client read it.
    package struct Answer: Sendable {
        let server: String
        /// Newest first, with the server's own ids.
        let posts: [Post]
        /// Each post's `uri` by its id there.
        let uris: [String: String]
        let hasOlder: Bool

        package init(server: String, posts: [Post], uris: [String: String], hasOlder: Bool) {
            (self.server, self.posts, self.uris, self.hasOlder) = (server, posts, uris, hasOlder)
        }
    }

    /// Which way the page goes from the position it was asked at.
    package enum Direction: Sendable {
        case newest
        case newer
        case older
    }

    /// A post as the page shows it, with the servers that gave it.
    private struct Entry {
        var post: Post
        var order: FleetOrder
        var servers: [String]
        let actor: String
    }

    let request: SearchRequest
    let direction: Direction
    let incoming: FleetPosition
    /// The fleet's servers, in the order the list names them.
    let servers: [String]

    package init(request: SearchRequest, direction: Direction, incoming: FleetPosition, servers: [String]) {
        (self.request, self.direction, self.incoming, self.servers) = (request, direction, incoming, servers)
    }

    /// The page; `failed` are the servers asked that did not answer (their places stay where they were), `problems`
    /// what the round has to say already.
    package func page(_ answers: [Answer], failed: Set<String> = [], problems: [String] = []) -> SearchPage {
        var problems = problems
        let entries = Self.entries(answers, problems: &problems)
        let shown = chosen(entries)
        let cuts = FleetCuts(
            merge: self, orders: shown.map(\.order),
            items: Dictionary(uniqueKeysWithValues: answers.map { ($0.server, ServerItems($0)) }), failed: failed)
        let posts = shown.map { $0.post.identified(by: { _ in nil }, seenOn: homeFirst($0)) }
        let newer = shown.isEmpty ? request : request.at(.newer(than: cuts.newer(at: 0)))
        var older: SearchRequest?
        if direction != .newer, let last = shown.indices.last {
            let place = cuts.position(.older, at: last)
            if !servers.allSatisfy({ place.places[$0] == .exhausted }) {
                older = request.at(.older(than: place.encoded, token: nil))
            }
        }
        return SearchPage(posts: posts, newer: newer, older: older, problems: problems, cuts: cuts)
    }

    /// Where the fleet goes on when a round showed nothing (every post it got was shown before): each server past
    /// what it gave, the boundary unchanged; nil when no server moved.
    func advanced(_ answers: [Answer], failed: Set<String> = []) -> FleetPosition? {
        let items = Dictionary(uniqueKeysWithValues: answers.map { ($0.server, ServerItems($0)) })
        guard let boundary = incoming.boundary else { return nil }
        let side: Direction = direction == .newer ? .newer : .older
        let next = position(side, at: boundary, items, failed)
        return next == incoming ? nil : next
    }

    /// The posts past the boundary, newest first: the newest `count` (for newer posts, the `count` just after it).
    private func chosen(_ entries: [Entry]) -> [Entry] {
        let fresh = entries.filter { entry in
            isPast(incoming.boundary, entry.order)
                || entry.servers.contains { server in incoming.behind[server].map { isPast($0, entry.order) } ?? false }
        }
        let sorted = fresh.sorted { $1.order < $0.order }
        return direction == .newer ? Array(sorted.suffix(request.count)) : Array(sorted.prefix(request.count))
    }

    /// Whether a post at `order` lies past `boundary` the way this page goes (every post does past none).
    private func isPast(_ boundary: FleetOrder?, _ order: FleetOrder) -> Bool {
        guard let boundary else { return true }
        return direction == .newer ? boundary < order : order < boundary
    }

    /// Every post once: a `uri` given twice by different authors (a server's mistake, or a forgery) keeps the copy
    /// whose author lives on the `uri`'s server, else the first, and names the server whose copy was left out.
    private static func entries(_ answers: [Answer], problems: inout [String]) -> [Entry] {
        var entries: [Entry] = []
        var index: [String: Int] = [:]
        for answer in answers {
            for post in answer.posts {
                guard let uri = answer.uris[post.id] else {
                    problems.append(
                        "\(answer.server) sent status \(post.id.excerpt(40)) without its ActivityPub id; it is left "
                            + "out.")
                    continue
                }
                let actor = (post.repostedBy ?? post.author).handle.lowercased()
                // Named by uri only when it is the copy the page keeps.
                let entry = {
                    let canonical = post.identified(by: { answer.uris[$0] }, seenOn: [])
                    return Entry(post: canonical, order: FleetOrder(canonical), servers: [answer.server], actor: actor)
                }
                guard let at = index[uri] else {
                    index[uri] = entries.count
                    entries.append(entry())
                    continue
                }
                if entries[at].actor == actor {
                    entries[at].servers.append(answer.server)
                    continue
                }
                let home = WebLink.authority(of: uri)
                let dropped: String
                if Self.domain(of: actor) == home, Self.domain(of: entries[at].actor) != home {
                    dropped = entries[at].servers.joined(separator: ", ")
                    entries[at] = entry()
                } else {
                    dropped = answer.server
                }
                problems.append(
                    "\(dropped) gave a post whose ActivityPub id (\(uri.excerpt(80))) belongs to another author; "
                        + "its copy is left out."
                )
            }
        }
        return entries
    }

    /// The servers that gave the post, its own first.
    private func homeFirst(_ entry: Entry) -> [String] {
        let home = WebLink.authority(of: entry.post.id)
        return entry.servers.filter { $0.lowercased() == home } + entry.servers.filter { $0.lowercased() != home }
    }

    /// The server a full address (`alice@home.social`) lives on.
    private static func domain(of address: String) -> String? {
        address.split(separator: "@").last.map(String.init)
    }

    /// The position just past the post at `boundary`, for each server: newer from the newest of its posts the
    /// page has dealt with (shown, or at or before what was shown), older from the oldest.
    fileprivate func position(
        _ side: Direction, at boundary: FleetOrder, _ items: [String: ServerItems], _ failed: Set<String>
    ) -> FleetPosition {
        var position = FleetPosition(boundary: boundary)
        for server in servers {
            let kept = incoming.places[server]
            if failed.contains(server) { position.behind[server] = incoming.behind[server] ?? .some(incoming.boundary) }
            guard !failed.contains(server), let answer = items[server] else {
                position.places[server] = kept
                continue
            }
            position.places[server] =
                side == .newer ? answer.newerPlace(past: boundary) ?? kept : answer.olderPlace(past: boundary) ?? kept
        }
        return position
    }
}

/// A fleet page's positions at each of its posts, worked out when a merged page asks for one.
private struct FleetCuts: PageCuts {
    let merge: FleetMerge
    let orders: [FleetOrder]
    let items: [String: ServerItems]
    let failed: Set<String>

    func position(_ side: FleetMerge.Direction, at index: Int) -> FleetPosition {
        merge.position(side, at: orders[index], items, failed)
    }

    func newer(at index: Int) -> String { position(.newer, at: index).encoded }
    func older(at index: Int) -> String { position(.older, at: index).encoded }
}

/// A server's answer as positions: each post's id there and its place in the fleet's order.
private struct ServerItems: Sendable {
    let items: [(id: String, order: FleetOrder)]
    let hasOlder: Bool

    init(_ answer: FleetMerge.Answer) {
        items = answer.posts.compactMap { post in answer.uris[post.id].map { (post.id, FleetOrder(post, id: $0)) } }
        hasOlder = answer.hasOlder
    }

    /// Older than the oldest of its posts at or above the boundary, provided none below it is passed over; nil to
    /// stay where it was.
    func olderPlace(past boundary: FleetOrder) -> FleetPosition.Place? {
        let dealt = items.filter { !($0.order < boundary) }.map(\.id)
        let left = items.filter { $0.order < boundary }.map(\.id)
        if left.isEmpty, !hasOlder { return .exhausted }
        let newestLeft = left.max(by: MastodonID.isBefore)
        let candidates = dealt.filter { id in newestLeft.map { MastodonID.isBefore($0, id) } ?? true }
        return candidates.min(by: MastodonID.isBefore).map { .at($0) }
    }

    /// Newer than the newest of its posts at or below the boundary, provided none above it is passed over; nil to
    /// stay where it was.
    func newerPlace(past boundary: FleetOrder) -> FleetPosition.Place? {
        let dealt = items.filter { !(boundary < $0.order) }.map(\.id)
        let oldestLeft = items.filter { boundary < $0.order }.map(\.id).min(by: MastodonID.isBefore)
        let candidates = dealt.filter { id in oldestLeft.map { MastodonID.isBefore(id, $0) } ?? true }
        return candidates.max(by: MastodonID.isBefore).map { .at($0) }
    }
}
