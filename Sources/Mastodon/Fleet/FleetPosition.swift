import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a fleet of servers goes on: each server's own position (its local id to go on from) and the last post shown,
/// in the fleet's order. A post one server shows may reach another later, under another id: the boundary keeps it
/// from being shown twice, however far behind that server's position is.
///
/// Written as one opaque word (`f1` and base64url, no `,` or `:`), so that it stands where a single source's post id
/// stands: in a page's links, the JSON twin and a tracked term's saved place.
package struct FleetPosition: Sendable, Equatable {
    /// Where one server goes on.
    package enum Place: Sendable, Equatable {
        /// From the post with this id on that server.
        case at(String)
        /// Nothing older there (an older walk no longer asks it).
        case exhausted
    }

    /// Each server by its name (`MastodonFleet.Server.name`); a server not listed starts from its newest posts.
    var places: [String: Place] = [:]
    /// The last post shown: the newest of a page for a newer walk, the oldest for an older one.
    var boundary: FleetOrder?
    /// The servers that failed while the others went on, each with the boundary of the round it missed (nil: from
    /// the newest): what they alone have past it comes when they answer again, rather than never.
    var behind: [String: FleetOrder?] = [:]

    private static let prefix = "f1"

    var encoded: String {
        var lines = [boundary?.line ?? "-"]
        for (server, place) in places.sorted(by: { $0.key < $1.key }) {
            switch place {
            case .at(let id): lines.append("\(server) \(id)")
            case .exhausted: lines.append("\(server)")
            }
        }
        for (server, boundary) in behind.sorted(by: { $0.key < $1.key }) {
            lines.append("~\(server)" + (boundary.map { " " + $0.line } ?? ""))
        }
        return Self.prefix + Base64URL.encode(Array(lines.joined(separator: "\n").utf8))
    }

    package init(places: [String: Place] = [:], boundary: FleetOrder? = nil, behind: [String: FleetOrder?] = [:]) {
        (self.places, self.boundary, self.behind) = (places, boundary, behind)
    }

    /// A position this fleet wrote; nil for anything else (a single server's id, a mangled link).
    init?(decoding word: String) {
        guard word.hasPrefix(Self.prefix), let bytes = Base64URL.decode(word.dropFirst(Self.prefix.count)),
            let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let first = lines.popFirst() else { return nil }
        if first != "-" {
            guard let order = FleetOrder(line: first) else { return nil }
            boundary = order
        }
        for line in lines {
            if line.hasPrefix("~") {
                let parts = line.dropFirst().split(separator: " ", maxSplits: 1)
                guard let server = parts.first, !server.isEmpty else { return nil }
                guard parts.count == 2 else {
                    behind[String(server)] = .some(nil)
                    continue
                }
                guard let order = FleetOrder(line: parts[1]) else { return nil }
                behind[String(server)] = order
                continue
            }
            let parts = line.split(separator: " ", maxSplits: 1)
            guard let server = parts.first, !server.isEmpty else { return nil }
            places[String(server)] = parts.count == 2 ? .at(String(parts[1])) : .exhausted
        }
    }
}

/// A post's place in a fleet's pages: newest first by time, then by id, so that every post has one place whatever
/// server delivered it.
package struct FleetOrder: Sendable, Hashable, Comparable {
    let createdMilliseconds: Int64
    let id: String

    init(createdMilliseconds: Int64, id: String) {
        (self.createdMilliseconds, self.id) = (createdMilliseconds, id)
    }

    /// `milliseconds id`, as a position writes it.
    var line: String { "\(createdMilliseconds) \(id)" }

    init?(line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let milliseconds = Int64(parts[0]) else { return nil }
        self.init(createdMilliseconds: milliseconds, id: String(parts[1]))
    }

    /// The post's place, under `id` (its `uri`) when given.
    init(_ post: Post, id: String? = nil) {
        self.init(createdMilliseconds: post.created.millisecondsSince1970, id: id ?? post.id)
    }

    /// `a < b`: a is older (comes later in a page).
    package static func < (a: FleetOrder, b: FleetOrder) -> Bool {
        (a.createdMilliseconds, a.id) < (b.createdMilliseconds, b.id)
    }
}
