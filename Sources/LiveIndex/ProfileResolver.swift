import Bluesky
import Corpus
import HTTPExchange
import Logging
import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Resolves the authors the live index stored by DID: handle, display name and avatar from Bluesky's
/// public directory, 25 per request, kept in the corpus. Posts are searchable by word and tag before their author
/// resolves, and by `from:handle` after. A failing directory is logged once, with its reason, and asked again later
/// (after the time a rate limit names, else after a pause that grows).
public struct ProfileResolver: Sendable {
    let corpus: any LiveIndexCorpus
    let directory: ProfileDirectory
    let logger: Logger
    /// The pause while nobody is waiting to be resolved.
    let idle: Duration

    public init(corpus: any LiveIndexCorpus, directory: ProfileDirectory, logger: Logger, idle: Duration = .seconds(1))
    {
        (self.corpus, self.directory, self.logger, self.idle) = (corpus, directory, logger, idle)
    }

    /// Resolves until cancelled.
    public func run() async {
        var backoff = Backoff(first: .seconds(2), most: .seconds(300))
        while !Task.isCancelled {
            var pause = idle
            do {
                try await resolvePending()
                if backoff.hasFailed { logger.notice("Resolving Bluesky profiles again.") }
                backoff.reset()
            } catch {
                if Task.isCancelled { return }  // stopping, not an outage
                let isNewOutage = !backoff.hasFailed
                pause = Self.pause(after: error, backoff: &backoff)
                if isNewOutage {
                    logger.warning(
                        """
                        Could not resolve Bluesky profiles: \(error); trying again in \(pause), and after longer \
                        pauses while it fails.
                        """
                    )
                }
            }
            try? await Task.sleep(for: pause)
        }
    }

    /// Resolves everyone waiting now, a request at a time; how many profiles were found.
    @discardableResult
    public func resolvePending() async throws -> Int {
        var found = 0
        while !Task.isCancelled {
            let dids = try await corpus.pendingAuthors(limit: ProfileDirectory.batchSize)
            guard !dids.isEmpty else { break }
            let profiles = try await profiles(of: dids)
            let known = Set(profiles.map { $0.did.lowercased() })
            try await corpus.store(profiles: profiles, unknown: dids.filter { !known.contains($0.lowercased()) })
            found += profiles.count
        }
        return found
    }

    /// A request the directory refuses as such (400) would be refused again: its accounts stay DIDs.
    private func profiles(of dids: [String]) async throws -> [AccountProfile] {
        do {
            return try await directory.profiles(of: dids)
        } catch let error as BlueskyError {
            guard case .badQuery = error.reason else { throw error }
            logger.warning(
                "Bluesky's directory refused to resolve \(dids.count) accounts; they stay shown by DID: \(error)")
            return []
        }
    }

    /// Until the time a rate limit names, else the growing pause.
    private static func pause(after error: any Error, backoff: inout Backoff) -> Duration {
        let next = backoff.next()
        guard let error = error as? BlueskyError, case .rateLimited(let retryAt?) = error.reason else { return next }
        return .seconds(max(1, retryAt.timeIntervalSinceNow))
    }
}
