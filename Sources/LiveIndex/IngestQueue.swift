import Synchronization

/// Events on their way from a reader (the socket, a file) to the ingester, at most `limit` of them: past that the
/// reader waits, so a slow disk holds the stream back instead of filling memory. Ticks do not count.
package final class IngestQueue: Sendable {
    private let limit: Int
    private let queued = Atomic(0)
    private let stream: AsyncThrowingStream<IngestEvent, any Error>
    private let continuation: AsyncThrowingStream<IngestEvent, any Error>.Continuation

    package init(limit: Int) {
        self.limit = limit
        (stream, continuation) = AsyncThrowingStream.makeStream(of: IngestEvent.self)
    }

    /// Adds an event once there is room (or the reader is cancelled).
    package func put(_ event: IngestEvent) async {
        while queued.load(ordering: .relaxed) >= limit, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(2))
        }
        queued.add(1, ordering: .relaxed)
        continuation.yield(event)
    }

    /// Time passing, for a quiet stream: never waits, never counts.
    package func tick() {
        continuation.yield(.tick)
    }

    package func finish(throwing error: (any Error)? = nil) {
        continuation.finish(throwing: error)
    }

    /// The events in order, each leaving room for the next as it is taken.
    package var events: some AsyncSequence<IngestEvent, any Error> {
        stream.map { [self] event in
            if case .tick = event {} else { self.queued.subtract(1, ordering: .relaxed) }
            return event
        }
    }
}
