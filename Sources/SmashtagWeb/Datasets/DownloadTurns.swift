import Synchronization

/// Datasets made a few at a time, the others waiting their turn in the order they came. Making one reads every
/// post of a term and writes its tables: sixteen at once would not finish sooner than four, only share the cores, the
/// database's readers and memory sixteen ways while pages wait behind them. A waiting download costs a suspended
/// task; its answer has begun (the browser shows the download) and says how many were ahead
/// (`Smashtag-Downloads-Ahead`).
final class DownloadTurns: Sendable {
    /// How many are made at once.
    let most: Int

    private struct State {
        var running = 0
        var waiting: [(id: Int, turn: CheckedContinuation<Void, any Error>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    init(most: Int) {
        precondition(most > 0)
        self.most = most
    }

    /// How many would be ahead of a download asked for now: 0 when one would start at once.
    var ahead: Int {
        state.withLock { $0.running < most ? 0 : $0.waiting.count + 1 }
    }

    /// `work` once a turn is free, the turn given back when it ends. A download whose client left while it waited
    /// (its task cancelled) leaves the line.
    func withTurn<T>(_ work: () async throws -> T) async throws -> T {
        try await take()
        defer { giveBack() }
        return try await work()
    }

    /// A free turn at once, else a place at the end of the line. Both are decided under one lock, so a turn given
    /// back meanwhile cannot be missed.
    private func take() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (turn: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard state.running >= most else {
                        state.running += 1
                        return .success(())
                    }
                    state.waiting.append((id, turn))
                    return nil
                }
                if let now { turn.resume(with: now) }
            }
        } onCancel: {
            let turn = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).turn }
            }
            turn?.resume(throwing: CancellationError())
        }
    }

    /// The turn goes to the first waiting, else it is free.
    private func giveBack() {
        let next = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.waiting.removeFirst().turn
        }
        next?.resume()
    }
}
