import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one round of asking a fleet's servers got: the answers, the servers that failed (their places are kept),
/// and a sentence for each failure and for what an answer left out.
struct FleetRound: Sendable {
    var answers: [FleetMerge.Answer] = []
    var failed: Set<String> = []
    var problems: [String] = []
}

/// One server's outcome in a round.
private enum ServerOutcome: Sendable {
    case answered(FleetMerge.Answer, problems: [String])
    /// The account asked for is not known there: no posts, and no failure unless no server knows it.
    case unknownAccount(MastodonError)
    case failed(any Error)
    case notAsked
}

extension MastodonFleet {
    /// Every server that has something left at `position`, asked at once; throws only when every server asked
    /// failed (or none knows the account asked for).
    func ask(
        _ asked: [Server], _ request: SearchRequest, at position: FleetPosition, _ direction: FleetMerge.Direction,
        background: Bool
    ) async throws -> FleetRound {
        let outcomes = await withTaskGroup(of: (Int, ServerOutcome).self) { group in
            for (index, server) in asked.enumerated() {
                group.addTask {
                    (index, await Self.ask(server, request, at: position.places[server.name], direction, background))
                }
            }
            var outcomes = [ServerOutcome](repeating: .notAsked, count: asked.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        var round = FleetRound()
        var errors: [any Error] = []
        var unknown: [MastodonError] = []
        for (server, outcome) in zip(asked, outcomes) {
            switch outcome {
            case .answered(let answer, let problems):
                round.answers.append(answer)
                round.problems += problems
            case .unknownAccount(let error):
                unknown.append(error)
                round.answers.append(FleetMerge.Answer(server: server.name, posts: [], uris: [:], hasOlder: false))
            case .failed(let error):
                errors.append(error)
                round.failed.insert(server.name)
                round.problems.append(SourceFailure.sentence(for: error))
            case .notAsked:
                break
            }
        }
        if round.answers.count == unknown.count, let first = unknown.first, errors.isEmpty { throw first }
        if round.answers.isEmpty, !errors.isEmpty { throw errors.count == 1 ? errors[0] : FleetUnavailable(errors) }
        return round
    }

    /// One server's page from its place: not asked when an older walk has passed its oldest post, nor while a 429
    /// holds, nor, for background work, while its window is down to the share kept for searches (each then said,
    /// and its place kept).
    private static func ask(
        _ server: Server, _ request: SearchRequest, at place: FleetPosition.Place?, _ direction: FleetMerge.Direction,
        _ background: Bool
    ) async -> ServerOutcome {
        let position: SearchRequest.Position
        switch (place, direction) {
        case (.exhausted?, .older): return .notAsked
        case (.at(let id)?, .older): position = .older(than: id, token: nil)
        case (.at(let id)?, .newer): position = .newer(than: id)
        default: position = .newest
        }
        if let until = server.client.budget?.blocked() {
            return .failed(MastodonError(server: server.name, reason: .rateLimited(retryAt: until)))
        }
        if background, let until = server.client.budget?.backgroundResumes() {
            return .failed(MastodonError(server: server.name, reason: .keptForSearches(until: until)))
        }
        do {
            let walk = try await server.client.walk(request.at(position))
            return .answered(
                FleetMerge.Answer(server: server.name, posts: walk.posts, uris: walk.uris, hasOlder: walk.hasOlder),
                problems: walk.problems)
        } catch let error as MastodonError {
            if case .noSuchAccount = error.reason { return .unknownAccount(error) }
            return .failed(error)
        } catch {
            return .failed(error)
        }
    }
}

/// Every server of a fleet failed: each one's sentence.
struct FleetUnavailable: Error, Sendable, ExplainedError, RateLimitRefusal {
    let sentences: [String]
    let isRateLimited: Bool

    init(_ errors: [any Error]) {
        sentences = errors.map(SourceFailure.sentence(for:))
        isRateLimited = errors.allSatisfy { ($0 as? any RateLimitRefusal)?.isRateLimited == true }
    }

    var description: String { sentences.joined(separator: " ") }
}
