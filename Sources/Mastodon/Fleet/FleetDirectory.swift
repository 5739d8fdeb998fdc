import Posts
import Synchronization

/// Where each post a fleet showed lately was seen: its `uri` to the first server that gave it and its id there, so
/// that its thread and a recheck ask a server that has it. Two generations of at most `capacity` posts each: the
/// oldest half is forgotten at once, never one post at a time.
final class FleetDirectory: Sendable {
    struct Place: Sendable, Hashable {
        let server: String
        let id: String
    }

    private struct Generations {
        var current: [String: Place] = [:]
        var previous: [String: Place] = [:]
    }

    private let generations = Mutex(Generations())
    private let capacity: Int

    init(capacity: Int = 50_000) {
        self.capacity = capacity
    }

    func remember(_ answers: [FleetMerge.Answer]) {
        generations.withLock { generations in
            for answer in answers {
                for (id, uri) in answer.uris where generations.current[uri] == nil {
                    generations.current[uri] = Place(server: answer.server, id: id)
                }
            }
            if generations.current.count > capacity {
                generations.previous = generations.current
                generations.current = [:]
            }
        }
    }

    func place(of uri: String) -> Place? {
        generations.withLock { $0.current[uri] ?? $0.previous[uri] }
    }
}
