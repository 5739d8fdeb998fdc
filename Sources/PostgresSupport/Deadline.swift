import Synchronization

/// `work`, or `StoreUnavailable.timedOut` once `limit` has passed — returning then even if `work` never finishes. A
/// task group cannot promise that (it waits for every child), and a query written to a connection that has just
/// closed can wait forever. A straggler is left to finish on its own rather than cancelled: cancelling a task that is
/// being handed a pooled connection at that moment can lose the connection to the pool for good (seen under load).
package func withDeadline<T: Sendable>(
    _ limit: Duration, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Outcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.wait(continuation)
            Task {
                do { outcome.finish(.success(try await work())) } catch { outcome.finish(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                outcome.finish(.failure(StoreUnavailable.timedOut))
            }
            outcome.whenFinished { timer.cancel() }
        }
    } onCancel: {
        outcome.finish(.failure(CancellationError()))
    }
}

/// The first of the work's result, the deadline and the caller's cancellation, delivered once.
private final class Outcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var finished: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state in
            state.continuation = continuation
            return state.result
        }
        if let early { continuation.resume(with: early) }
    }

    func whenFinished(_ action: @escaping @Sendable () -> Void) {
        let done = state.withLock { state in
            state.finished = action
            return state.result != nil
        }
        if done { action() }
    }

    /// True if this was the first outcome.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (continuation, action, first) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?, Bool) in
            guard state.result == nil else { return (nil, nil, false) }
            state.result = result
            defer { state.continuation = nil }
            return (state.continuation, state.finished, true)
        }
        continuation?.resume(with: result)
        action?()
        return first
    }
}
