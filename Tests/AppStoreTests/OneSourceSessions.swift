import AppStore
import Posts
import SmashtagApp

/// Search sessions over one source named `corpus`, asked at one position, as most tests search.
struct OneSourceSessions {
    let sessions: SearchSessions
    let sources: SourceSet

    init(database: AppDatabase, source: any PostSource) {
        sessions = SearchSessions(database: database)
        sources = SourceSet(only: source)
    }

    func fetch(_ term: String, at position: SearchRequest.Position, count: Int = 20) async throws -> MergedPage {
        try await sessions.fetch(term, from: sources, at: Self.merged(position), count: count)
    }

    func olderPosition(for term: String) async throws -> SearchRequest.Position? {
        guard case .older(let positions) = try await sessions.olderPosition(for: term, from: sources) else {
            return nil
        }
        return positions["corpus"]
    }

    func newerPosition(for term: String) async throws -> SearchRequest.Position? {
        guard case .newer(let positions) = try await sessions.newerPosition(for: term, from: sources) else {
            return nil
        }
        return positions["corpus"]
    }

    static func merged(_ position: SearchRequest.Position) -> MergedPosition {
        switch position {
        case .newest: .newest
        case .newer: .newer(["corpus": position])
        case .older: .older(["corpus": position])
        }
    }
}
